import { NO_RESULT } from "@mm/core";
import type { Message, ModelEvent, ModelRequest, ToolSpec } from "@mm/core";
import { afterEach, describe, expect, it } from "vitest";
import { dropAfter, fakeServerKeeper, slowText, stall, status, text, thinking, toolCalls } from "../../fake-openai/src/index.js";
import { aiSdkModel, type AiSdkModelOptions } from "./ai-sdk-model.js";
import { collect } from "./test-support.js";

const API_KEY = "sk-test-SECRET-0123456789";

const bash: ToolSpec = {
  name: "bash",
  description: "Run a bash command.",
  inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
};

const servers = fakeServerKeeper();
afterEach(servers.close);
const start = servers.start;

const modelFor = (fake: { readonly url: string }, options: Partial<AiSdkModelOptions> = {}) =>
  aiSdkModel({ model: "fake-model", baseURL: fake.url, apiKey: API_KEY, api: "chat", maxRetries: 0, ...options });

const request = (messages: readonly Message[], overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  system: "You are Bob.",
  messages,
  tools: [bash],
  signal: new AbortController().signal,
  ...overrides,
});

const hi: Message[] = [{ role: "user", text: "hi" }];

const errorOf = (events: readonly ModelEvent[]) => {
  const last = events.at(-1);
  expect(last?.type).toBe("error");
  const error = (last as Extract<ModelEvent, { type: "error" }>).error;
  expect(error.message).not.toContain(API_KEY);
  expect(error.message).not.toContain("\n");
  return error;
};

describe("aiSdkModel over chat completions", () => {
  it("streams text as one event per delta, then finishes with the step's usage", async () => {
    const fake = await start([text(["Hel", "lo", " there"], { promptTokens: 321, completionTokens: 3 })]);
    const events = await collect(modelFor(fake).step(request(hi)));
    expect(events).toEqual([
      { type: "text", text: "Hel" },
      { type: "text", text: "lo" },
      { type: "text", text: " there" },
      { type: "finish", usage: { inputTokens: 321, outputTokens: 3 }, reason: "stop" },
    ]);
    const body = fake.requests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: "fake-model",
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: "system", content: "You are Bob." },
        { role: "user", content: "hi" },
      ],
      tools: [{ type: "function", function: { name: "bash", description: "Run a bash command.", parameters: bash.inputSchema } }],
    });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("round-trips a tool call: our ids go back with the assistant call and its result", async () => {
    const fake = await start([toolCalls([{ name: "bash", arguments: { command: "ls" }, id: "model_id_1" }], "Looking."), text("done")]);
    const model = modelFor(fake);
    const first = await collect(model.step(request(hi)));
    expect(first).toEqual([
      { type: "text", text: "Looking." },
      { type: "tool-call", id: "model_id_1", name: "bash", input: { command: "ls" } },
      { type: "finish", reason: expect.any(String), usage: expect.objectContaining({ inputTokens: expect.any(Number) }) },
    ]);
    const history: Message[] = [
      ...hi,
      { role: "assistant", text: "Looking.", toolCalls: [{ id: "call_7", name: "bash", input: { command: "ls" } }] },
      { role: "tool", callId: "call_7", toolName: "bash", status: "completed", output: "a.txt\nexit code 0" },
    ];
    const second = await collect(model.step(request(history)));
    expect(second.map((e) => e.type)).toEqual(["text", "finish"]);
    expect((fake.requests[1]!.body as { messages: unknown[] }).messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: "Looking.",
        tool_calls: [{ id: "call_7", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }],
      },
      { role: "tool", tool_call_id: "call_7", content: "a.txt\nexit code 0" },
    ]);
  });

  it("sends a placeholder result for a tool call that has none", async () => {
    const fake = await start();
    const history: Message[] = [
      ...hi,
      { role: "assistant", text: "", toolCalls: [{ id: "call_1", name: "bash", input: { command: "sleep 100" } }] },
      { role: "user", text: "never mind" },
    ];
    await collect(modelFor(fake).step(request(history)));
    expect((fake.requests[0]!.body as { messages: unknown[] }).messages.slice(2)).toMatchObject([
      { role: "assistant", tool_calls: [{ id: "call_1" }] },
      { role: "tool", tool_call_id: "call_1", content: NO_RESULT },
      { role: "user", content: "never mind" },
    ]);
  });

  it("still reports a tool call whose arguments are not JSON, with the raw text as input", async () => {
    const fake = await start([toolCalls([{ name: "bash", arguments: '{"command": "ls', id: "c1" }])]);
    const events = await collect(modelFor(fake).step(request(hi)));
    expect(events).toEqual([
      { type: "tool-call", id: "c1", name: "bash", input: '{"command": "ls' },
      { type: "finish", reason: expect.any(String), usage: expect.any(Object) },
    ]);
  });

  it("a base URL that is no URL (an embedder's) is the step's error, not a throw", async () => {
    const model = aiSdkModel({ model: "fake-model", baseURL: "127.0.0.1:8000/v1", apiKey: API_KEY, api: "chat", maxRetries: 0 });
    const error = errorOf(await collect(model.step(request(hi))));
    expect(error.kind).toBe("config");
    expect(error.message).toContain('"127.0.0.1:8000/v1" is not a URL');
  });

  it("explains a refused key (401) at once, without retrying, naming the variable that held it", async () => {
    const refusal = () => status(401, { error: { message: `Incorrect API key provided: ${API_KEY}`, type: "invalid_request_error" } });
    const fake = await start([refusal(), refusal()]);
    const error = errorOf(await collect(modelFor(fake, { maxRetries: 2 }).step(request(hi))));
    expect(error).toEqual({
      kind: "auth",
      message:
        "the model server refused the key in OPENAI_API_KEY (401): Incorrect API key provided: [redacted] (check that variable's value, or model.apiKeyEnv)",
    });
    expect(fake.requests).toHaveLength(1);
    const named = errorOf(await collect(modelFor(fake, { apiKeyEnv: "GROQ_API_KEY" }).step(request(hi))));
    expect(named.message).toMatch(/^the model server refused the key in GROQ_API_KEY \(401\)/);
  });

  it("explains a server error after the retries, with the server's message and no key", async () => {
    const fail = status(500, { error: { message: `upstream exploded for key ${API_KEY}` } });
    const fake = await start([fail, fail, fail]);
    const waits: number[] = [];
    const logs: string[] = [];
    const model = modelFor(fake, { maxRetries: 2, sleep: async (ms) => void waits.push(ms), log: (line) => logs.push(line) });
    const error = errorOf(await collect(model.step(request(hi))));
    expect(waits).toEqual([2000, 4000]);
    expect(logs).toEqual(["model server answered 500, retry 1/2 in 2 s", "model server answered 500, retry 2/2 in 4 s"]);
    expect(error.kind).toBe("server");
    expect(error.message).toMatch(/^model server error 500 after 3 attempts: upstream exploded for key /);
    expect(fake.requests).toHaveLength(3);
  });

  it("retries a 429 as told by retry-after, then streams the answer", async () => {
    const fake = await start([status(429, undefined, { "retry-after": "0" }), text(["fine"])]);
    const events = await collect(modelFor(fake, { maxRetries: 1 }).step(request(hi)));
    expect(events.map((e) => e.type)).toEqual(["text", "finish"]);
    expect(fake.requests).toHaveLength(2);
  });

  it("explains a 429 whose retries ran out", async () => {
    const limited = status(429, undefined, { "retry-after-ms": "5" });
    const fake = await start([limited, limited]);
    const error = errorOf(await collect(modelFor(fake, { maxRetries: 1 }).step(request(hi))));
    expect(error.kind).toBe("rate-limit");
    expect(error.message).toContain("retries exhausted");
  });

  it("explains a refused connection", async () => {
    const fake = await start();
    const url = fake.url;
    await servers.close();
    const logs: string[] = [];
    const model = aiSdkModel({
      model: "m",
      baseURL: url,
      apiKey: API_KEY,
      api: "chat",
      maxRetries: 1,
      sleep: async () => undefined,
      log: (line) => logs.push(line),
    });
    const events = await collect(model.step(request(hi)));
    expect(errorOf(events)).toMatchObject({ kind: "network", message: expect.stringContaining(`cannot reach the model server at ${url}: connection refused`) });
    expect(logs).toEqual([`cannot reach the model server at ${url}: connection refused, retry 1/1 in 2 s`]);
  });

  it("ends with a network error after the text received before the connection dropped", async () => {
    const fake = await start([dropAfter(["par", "tial"])]);
    const events = await collect(modelFor(fake, { maxRetries: 2 }).step(request(hi)));
    expect(events.slice(0, 2)).toEqual([
      { type: "text", text: "par" },
      { type: "text", text: "tial" },
    ]);
    expect(events).toHaveLength(3);
    expect(errorOf(events)).toEqual({
      kind: "network",
      message: `the connection to the model server at ${fake.url} broke before the answer was finished`,
    });
  });

  it("ends promptly as aborted when the signal fires while the server stalls", async () => {
    const fake = await start([stall(60_000)]);
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error("user cancelled")), 100);
    const events = await collect(modelFor(fake).step(request(hi, { signal: controller.signal })));
    expect(events).toEqual([{ type: "error", error: { kind: "aborted", message: expect.any(String) } }]);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("ends as aborted when the signal fires mid-stream", async () => {
    const fake = await start([slowText(["a", "b", "c", "d", "e", "f"], 50)]);
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    for await (const event of modelFor(fake).step(request(hi, { signal: controller.signal }))) {
      events.push(event);
      if (event.type === "text" && event.text === "b") controller.abort(new Error("user cancelled"));
    }
    expect(events).toEqual([
      { type: "text", text: "a" },
      { type: "text", text: "b" },
      { type: "error", error: { kind: "aborted", message: expect.any(String) } },
    ]);
  });

  it("lets a consumer stop early without waiting for the rest of the stream", async () => {
    const fake = await start([slowText(["a", "b", "c"], 300)]);
    const started = performance.now();
    for await (const event of modelFor(fake).step(request(hi))) if (event.type === "text") break;
    expect(performance.now() - started).toBeLessThan(900);
  });

  it("answers aborted at once for a signal already aborted, without a request", async () => {
    const fake = await start();
    const controller = new AbortController();
    controller.abort();
    const events = await collect(modelFor(fake).step(request(hi, { signal: controller.signal })));
    expect(events).toEqual([{ type: "error", error: { kind: "aborted", message: expect.any(String) } }]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("aiSdkModel without an API key", () => {
  it("fails each step with a config error for OpenAI's own endpoint", async () => {
    for (const baseURL of [undefined, "https://api.openai.com/v1"]) {
      const events = await collect(aiSdkModel({ model: "gpt-4.1-mini", api: "chat", ...(baseURL ? { baseURL } : {}) }).step(request(hi)));
      expect(events).toEqual([
        { type: "error", error: { kind: "config", message: "no API key: set OPENAI_API_KEY (or the variable named by model.apiKeyEnv)" } },
      ]);
    }
    const named = await collect(aiSdkModel({ model: "gpt-4.1-mini", api: "chat", apiKeyEnv: "WORK_OPENAI_KEY" }).step(request(hi)));
    expect(named).toEqual([{ type: "error", error: { kind: "config", message: "no API key: set WORK_OPENAI_KEY (the variable model.apiKeyEnv names)" } }]);
  });

  it("sends a placeholder key to other servers", async () => {
    const fake = await start();
    const events = await collect(aiSdkModel({ model: "llama", baseURL: fake.url, api: "chat" }).step(request(hi)));
    expect(events.at(-1)?.type).toBe("finish");
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer not-needed");
  });
});

describe("aiSdkModel over the Responses API", () => {
  it("streams text and tool calls with store: false and our ids in the replayed history", async () => {
    const fake = await start([toolCalls([{ name: "bash", arguments: { command: "ls" }, id: "fc_call" }], "Looking."), text(["a", "b"], { promptTokens: 42 })]);
    const model = modelFor(fake, { api: "responses" });
    const first = await collect(model.step(request(hi)));
    expect(first).toEqual([
      { type: "text", text: "Looking." },
      { type: "tool-call", id: "fc_call", name: "bash", input: { command: "ls" } },
      { type: "finish", reason: expect.any(String), usage: expect.objectContaining({ inputTokens: expect.any(Number) }) },
    ]);
    expect(fake.requests[0]).toMatchObject({ path: "/v1/responses", body: { store: false, stream: true } });
    const history: Message[] = [
      ...hi,
      { role: "assistant", text: "Looking.", toolCalls: [{ id: "call_3", name: "bash", input: { command: "ls" } }] },
      { role: "tool", callId: "call_3", toolName: "bash", status: "completed", output: "a.txt" },
    ];
    const second = await collect(model.step(request(history)));
    expect(second).toEqual([
      { type: "text", text: "a" },
      { type: "text", text: "b" },
      { type: "finish", reason: expect.any(String), usage: expect.objectContaining({ inputTokens: 42 }) },
    ]);
    const input = (fake.requests[1]!.body as { input: unknown[] }).input;
    expect(input).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "function_call", call_id: "call_3", name: "bash" }),
        expect.objectContaining({ type: "function_call_output", call_id: "call_3", output: "a.txt" }),
      ]),
    );
  });
});

describe("aiSdkModel: reasoning and images", () => {
  const PNG = "iVBORw0KGgo=";

  it("streams a reasoning model's summary as reasoning events with its item and encrypted content, and sends them back", async () => {
    const fake = await start([thinking(["Weighing ", "options."], ["Done."]), text("next")]);
    const model = modelFor(fake, { api: "responses", model: "gpt-5-mini" });
    const events = await collect(model.step(request(hi)));
    expect(fake.requests[0]).toMatchObject({ body: { store: false, reasoning: { summary: "auto" }, include: ["reasoning.encrypted_content"] } });
    const item = expect.stringMatching(/^rs_/);
    expect(events).toEqual([
      { type: "reasoning", text: "Weighing ", item },
      { type: "reasoning", text: "options.", item },
      { type: "reasoning-end", item, encrypted: expect.stringMatching(/^encrypted:/) },
      { type: "text", text: "Done." },
      { type: "finish", reason: expect.any(String), usage: expect.any(Object) },
    ]);
    const end = events[2] as { item: string; encrypted: string };
    const history: Message[] = [
      ...hi,
      { role: "assistant", text: "Done.", toolCalls: [], reasoning: [{ text: "Weighing options.", item: end.item, encrypted: end.encrypted }] },
      { role: "user", text: "go on" },
    ];
    await collect(model.step(request(history)));
    const input = (fake.requests[1]!.body as { input: unknown[] }).input;
    expect(input).toContainEqual({
      type: "reasoning",
      id: end.item,
      encrypted_content: end.encrypted,
      summary: [{ type: "summary_text", text: "Weighing options." }],
    });
  });

  it("streams a chat server's reasoning_content as reasoning events before the text", async () => {
    const fake = await start([thinking(["Let me ", "think."], ["Hi"])]);
    const events = await collect(modelFor(fake).step(request(hi)));
    expect(events.map((e) => e.type)).toEqual(["reasoning", "reasoning", "text", "finish"]);
    expect(
      events
        .filter((e) => e.type === "reasoning")
        .map((e) => (e as { text: string }).text)
        .join(""),
    ).toBe("Let me think.");
  });

  it("sends a prompt's images as image parts of the user message", async () => {
    const fake = await start([text("a cat")]);
    await collect(modelFor(fake).step(request([{ role: "user", text: "what is it?", images: [{ data: PNG, mimeType: "image/png" }] }])));
    const body = fake.requests[0]!.body as { messages: { role: string; content: unknown }[] };
    expect(body.messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "text", text: "what is it?" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
      ],
    });
  });

  it("over chat completions, sends a tool's images in a user message after its result", async () => {
    const fake = await start([text("I see it")]);
    const messages: Message[] = [
      { role: "user", text: "screenshot" },
      { role: "assistant", text: "", toolCalls: [{ id: "call_1", name: "snap", input: {} }] },
      { role: "tool", callId: "call_1", toolName: "snap", status: "completed", output: "[1 image]", images: [{ data: PNG, mimeType: "image/png" }] },
    ];
    await collect(modelFor(fake).step(request(messages)));
    const body = fake.requests[0]!.body as { messages: { role: string; content: unknown }[] };
    expect(body.messages.slice(-2)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "[1 image]" },
      {
        role: "user",
        content: [
          { type: "text", text: "[the images returned by call_1]" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
  });
});
