import type { ModelEvent, ModelRequest } from "@mm/core";
import { describe, expect, it } from "vitest";
import { chatRoute, chatStep, type ChatStepOptions } from "./chat-step.js";
import type { HttpRequest, HttpSender } from "./node-http-fetch.js";

const BASE = "http://127.0.0.1:9/v1";
const choice = (delta: unknown, finish: string | null = null): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usage = `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 1 } })}\n\n`;
const errorFrame = (error: Record<string, unknown>): string => `data: ${JSON.stringify({ error })}\n\n`;

/** How the socket broke off, as node-http-fetch.ts reports it. */
const dropped = (): TypeError => new TypeError("terminated", { cause: Object.assign(new Error("other side closed"), { name: "SocketError", code: "UND_ERR_SOCKET" }) });

type Answer = { readonly status?: number; readonly contentType?: string; readonly frames: readonly string[]; readonly then?: "drop" | "hang" };

/** A sender answering each request with the next scripted answer, its frames one chunk each. */
const scripted = (answers: Answer[]) => {
  const requests: HttpRequest[] = [];
  const send: HttpSender = async (request) => {
    requests.push(request);
    const answer = answers.shift() ?? { frames: [choice({ content: "ok" })] };
    const frames = [...answer.frames];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const frame = frames.shift();
        if (frame !== undefined) return controller.enqueue(Buffer.from(frame));
        if (answer.then === "drop") return controller.error(dropped());
        if (answer.then === "hang") return new Promise<void>((resolve) => request.signal?.addEventListener("abort", () => (controller.error(request.signal?.reason), resolve())));
        controller.close();
      },
    });
    return new Response(body, { status: answer.status ?? 200, headers: { "content-type": answer.contentType ?? "text/event-stream" } });
  };
  return { send, requests };
};

const options = (overrides: Partial<ChatStepOptions> = {}): ChatStepOptions => ({
  model: "m",
  maxRetries: 2,
  errorContext: { baseURL: BASE, apiKey: "sk-secret-key" },
  notAStream: (contentType) => ({ kind: "bad-response", message: `not a stream: ${contentType}` }),
  sleep: async () => undefined,
  ...overrides,
});

const request = (signal = new AbortController().signal): ModelRequest => ({ system: "s", messages: [{ role: "user", text: "hi" }], tools: [], signal });

const run = async (answers: Answer[], overrides: Partial<ChatStepOptions> = {}, signal?: AbortSignal) => {
  const server = scripted(answers);
  const events: ModelEvent[] = [];
  for await (const event of chatStep(chatRoute({ apiKey: "sk-secret-key", baseURL: BASE, send: server.send }), request(signal), options(overrides))) events.push(event);
  return { events, requests: server.requests };
};

describe("chatStep", () => {
  it("sends one POST to /chat/completions with the key, and streams the answer to its finish", async () => {
    const { events, requests } = await run([{ frames: [choice({ role: "assistant", content: "" }), choice({ content: "Hi" }), choice({}, "stop"), usage, "data: [DONE]\n\n"] }]);
    expect(events).toEqual([
      { type: "text", text: "Hi" },
      { type: "finish", usage: { inputTokens: 5, outputTokens: 1 } },
    ]);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: "POST", url: new URL(`${BASE}/chat/completions`), headers: { authorization: "Bearer sk-secret-key", "content-type": "application/json" } });
    expect(JSON.parse(Buffer.concat(requests[0]!.body).toString())).toEqual({
      model: "m",
      messages: [{ role: "system", content: "s" }, { role: "user", content: "hi" }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("finishes a stream that ends without [DONE] or a finish reason, as the provider did", async () => {
    expect((await run([{ frames: [choice({ content: "a" })] }])).events).toEqual([
      { type: "text", text: "a" },
      { type: "finish", usage: {} },
    ]);
  });

  it("retries an error frame streamed before any output (reasoning then held back), with the status its type names", async () => {
    const retries: number[] = [];
    const { events, requests } = await run(
      [{ frames: [choice({ reasoning_content: "lost" }), errorFrame({ message: "Overloaded", type: "overloaded_error" })] }, { frames: [choice({ reasoning_content: "kept" }), choice({ content: "ok" })] }],
      { onRetry: (notice) => void retries.push((notice.error as { statusCode: number }).statusCode) },
    );
    expect(retries).toEqual([503]);
    expect(requests).toHaveLength(2);
    expect(events).toEqual([
      { type: "reasoning", text: "kept" },
      { type: "text", text: "ok" },
      { type: "finish", usage: {} },
    ]);
  });

  it("explains an error frame before output that retries do not cure, and does not retry a quota error", async () => {
    const frame = errorFrame({ message: "You exceeded your quota", type: "insufficient_quota", code: "insufficient_quota" });
    const { events, requests } = await run([{ frames: [frame] }]);
    expect(requests).toHaveLength(1);
    expect(events).toEqual([{ type: "error", error: { kind: "rate-limit", message: "the model server is rate-limiting requests (429), retries exhausted: You exceeded your quota" } }]);
    const bare = await run([{ frames: [errorFrame({ message: "boom" })] }, { frames: [errorFrame({ message: "boom" })] }, { frames: [errorFrame({ message: "boom" })] }]);
    expect(bare.events).toEqual([{ type: "error", error: { kind: "server", message: "model server error 500 after 3 attempts: OpenAI stream failed before any output was generated" } }]);
  });

  it("ends with the server's words for an error frame after output", async () => {
    const { events, requests } = await run([{ frames: [choice({ content: "par" }), errorFrame({ message: "upstream\nfailed", type: "server_error" })] }]);
    expect(requests).toHaveLength(1);
    expect(events).toEqual([
      { type: "text", text: "par" },
      { type: "error", error: { kind: "server", message: "the model server failed mid-response: upstream failed" } },
    ]);
  });

  it("retries a connection that broke before any output; one that broke after it ends the step", async () => {
    const early = await run([{ frames: [choice({ role: "assistant", content: "" })], then: "drop" }, { frames: [choice({ content: "ok" })] }]);
    expect(early.requests).toHaveLength(2);
    expect(early.events.map((e) => e.type)).toEqual(["text", "finish"]);
    const late = await run([{ frames: [choice({ content: "par" })], then: "drop" }]);
    expect(late.events).toEqual([
      { type: "text", text: "par" },
      { type: "error", error: { kind: "network", message: `the connection to the model server at ${BASE} broke mid-response` } },
    ]);
  });

  it("explains HTTP errors with the server's message, a 200 that is no event stream, and what mm cannot use", async () => {
    const body = JSON.stringify({ error: { message: "model gpt-9 does not exist", type: "invalid_request_error" } });
    const missing = await run([{ status: 404, contentType: "application/json", frames: [body] }]);
    expect(missing.events).toEqual([{ type: "error", error: { kind: "bad-response", message: "the model server answered 404: model gpt-9 does not exist (check model.name and model.baseURL)" } }]);
    expect((await run([{ contentType: "text/html", frames: ["<html>"] }])).events).toEqual([{ type: "error", error: { kind: "bad-response", message: "not a stream: text/html" } }]);
    const broken = await run([{ frames: [choice({ content: "a" }), "data: {oops\n\n"] }]);
    expect(broken.events[0]).toEqual({ type: "text", text: "a" });
    expect(broken.events[1]).toMatchObject({ type: "error", error: { kind: "bad-response", message: expect.stringMatching(/^the model server sent something mm cannot use: JSON parsing failed/) } });
  });

  it("ends as aborted when the signal fires while the answer hangs, and never retries then", async () => {
    const controller = new AbortController();
    const server = scripted([{ frames: [choice({ content: "a" })], then: "hang" }]);
    const events: ModelEvent[] = [];
    for await (const event of chatStep(chatRoute({ apiKey: "k", baseURL: BASE, send: server.send }), request(controller.signal), options())) {
      events.push(event);
      controller.abort(new Error("user cancelled"));
    }
    expect(events).toEqual([
      { type: "text", text: "a" },
      { type: "error", error: { kind: "aborted", message: "the model step was cancelled" } },
    ]);
    expect(server.requests).toHaveLength(1);
  });
});

describe("chatStep against the provider's path", () => {
  const call = (index: number, fn: Record<string, unknown>, id?: string): string => choice({ tool_calls: [{ index, ...(id !== undefined ? { id, type: "function" } : {}), function: fn }] });
  const streams: Record<string, Answer[]> = {
    text: [{ frames: [choice({ role: "assistant", content: "" }), choice({ content: "Hel" }), choice({ content: "lo", refusal: "!" }), choice({}, "stop"), usage, "data: [DONE]\n\n"] }],
    reasoning: [{ frames: [choice({ reasoning_content: "a" }), choice({ reasoning: "b" }), choice({ content: "c" }), usage] }],
    "tool calls": [
      {
        frames: [
          choice({ role: "assistant", content: "Looking." }),
          call(1, { name: "read_file", arguments: "" }, "b"),
          call(0, { name: "bash", arguments: '{"command":' }, "a"),
          call(0, { arguments: '"ls"}' }),
          call(1, { arguments: "not json" }),
          call(2, { name: " ", arguments: "{}" }),
          call(3, { name: "bash", arguments: "" }),
          choice({}, "tool_calls"),
          usage,
        ],
      },
    ],
    "an error frame after output": [{ frames: [choice({ content: "a" }), errorFrame({ message: "late", type: "server_error" })] }],
    "an error frame before output, then a good answer": [{ frames: [errorFrame({ message: "early", code: 503 })] }, { frames: [choice({ content: "ok" })] }],
    "an error frame before output every time": [{ frames: [errorFrame({ message: "no", type: "invalid_request_error" })] }],
    "a chunk that fails the check": [{ frames: [choice({ content: "a" }), `data: ${JSON.stringify({ choices: [{ index: 0, delta: { reasoning_content: "r", content: 3 } }] })}\n\n`] }],
    "a chunk without choices": [{ frames: [`data: ${JSON.stringify({ usage: { prompt_tokens: 1 } })}\n\n`] }],
    "a payload that is not JSON": [{ frames: [choice({ content: "a" }), "data: nope\n\n"] }],
    "a call without a name": [{ frames: [call(0, { arguments: "{}" }, "x")] }],
    "a drop after output": [{ frames: [choice({ content: "a" })], then: "drop" }],
    "a drop before output, then a good answer": [{ frames: [], then: "drop" }, { frames: [choice({ content: "ok" })] }],
    "a 500, then a good answer": [{ status: 500, contentType: "application/json", frames: ['{"error":{"message":"down"}}'] }, { frames: [choice({ content: "ok" })] }],
    "a 400 with no JSON": [{ status: 400, contentType: "text/plain", frames: ["bad"] }],
    "a JSON 200": [{ contentType: "application/json", frames: ['{"choices":[]}'] }],
  };

  /** The events of the provider's path (aiSdkModel on a `fetch`) for the same answers. */
  const providerEvents = async (answers: Answer[]): Promise<ModelEvent[]> => {
    const { aiSdkModel } = await import("./ai-sdk-model.js");
    const server = scripted(answers);
    const fetch = (async (input: string | URL | Request, init?: RequestInit) =>
      server.send({ url: new URL(String(input)), method: "POST", headers: {}, body: [Buffer.from(String(init?.body))], signal: init?.signal })) as typeof globalThis.fetch;
    const model = aiSdkModel({ model: "m", baseURL: BASE, apiKey: "sk-secret-key", api: "chat", maxRetries: 2, fetch, sleep: async () => undefined });
    const events: ModelEvent[] = [];
    for await (const event of model.step(request())) events.push(event);
    return events;
  };

  /** Generated call ids differ from run to run; a failed check says why in its own words (zod's issues there). */
  const normalised = (events: readonly ModelEvent[]) =>
    events.map((e) =>
      e.type === "tool-call" && /^[0-9A-Za-z]{16}$/.test(e.id)
        ? { ...e, id: "generated" }
        : e.type === "error" && e.error.message.includes("Type validation failed")
          ? { ...e, error: { ...e.error, message: e.error.message.replace(/Error message: .*$/, "Error message: …") } }
          : e,
    );

  for (const [name, answers] of Object.entries(streams)) {
    it(`gives the provider's events for ${name}`, async () => {
      const theirs = await providerEvents(structuredClone(answers));
      const ours = (await run(structuredClone(answers), { notAStream: (contentType) => ({ kind: "bad-response", message: `the model server at ${BASE} answered with ${contentType.split(";")[0]}, not an event stream (a proxy or a wrong base URL?)` }) })).events;
      expect(normalised(ours)).toEqual(normalised(theirs));
    });
  }
});
