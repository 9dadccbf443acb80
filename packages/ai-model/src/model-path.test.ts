/**
 * The model path's behaviours beyond one server's shape: a stream cut off before any output is tried
 * again (and its tool calls are not repeated), one step's output is capped, a proxy from the
 * environment carries every request, OpenAI's own endpoint goes through `@ai-sdk/openai`'s chat
 * model, a provider-executed call is not mm's, and the `<think>` tag can be turned off.
 */
import type { ModelRequest } from "@mm/core";
import { afterEach, describe, expect, it } from "vitest";
import { fakeServerKeeper, floodText, frames, startConnectProxy, text, type ConnectProxy } from "../../fake-openai/src/index.js";
import { aiSdkModel, type AiSdkModelOptions } from "./ai-sdk-model.js";
import { proxySettings } from "./proxy.js";
import { collect } from "./test-support.js";

const servers = fakeServerKeeper();
let proxy: ConnectProxy | undefined;
afterEach(async () => {
  await servers.close();
  await proxy?.close();
  proxy = undefined;
});

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  system: "You are Bob.",
  messages: [{ role: "user", text: "hi" }],
  tools: [{ name: "bash", description: "Run.", inputSchema: { type: "object", properties: { command: { type: "string" } } } }],
  signal: new AbortController().signal,
  ...overrides,
});

const sse = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null) =>
  sse({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: d, finish_reason: finish }] });

const modelOn = (url: string, options: Partial<AiSdkModelOptions> = {}) =>
  aiSdkModel({ model: "m", baseURL: url, apiKey: "sk-t", api: "chat", sleep: async () => undefined, ...options });

describe("the model path", () => {
  it("tries a stream cut off before any text again, and hands over the tool calls of the attempt that finished only", async () => {
    const call = (id: string) => delta({ tool_calls: [{ index: 0, id, type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }] });
    const fake = await servers.start([frames([call("first")], { end: "drop" }), frames([call("second"), delta({}, "tool_calls"), "data: [DONE]\n\n"])]);
    const lines: string[] = [];
    const events = await collect(modelOn(fake.url, { log: (l) => lines.push(l) }).step(request()));
    expect(events.filter((e) => e.type === "tool-call")).toEqual([{ type: "tool-call", id: "second", name: "bash", input: { command: "ls" } }]);
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "tool-calls" });
    expect(fake.requests).toHaveLength(2);
    expect(lines).toEqual([expect.stringMatching(/broke before the answer was finished, retry 1\/2 in 2 s$/)]);
  });

  it("fails a stream the server ends before any of the answer after its retries, and never reports it complete", async () => {
    const cut = frames([delta({ role: "assistant", content: "" })]);
    const fake = await servers.start([cut, cut, cut]);
    const events = await collect(modelOn(fake.url).step(request()));
    expect(events).toEqual([
      {
        type: "error",
        error: { kind: "network", message: `the model server at ${fake.url} ended the stream before finishing the answer after 3 attempts` },
      },
    ]);
    expect(fake.requests).toHaveLength(3);
  });

  it("finishes a stream its server ends with [DONE] and no finish reason, at once: stop, or tool-calls when calls came", async () => {
    const call = delta({ tool_calls: [{ index: 0, id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }] });
    const fake = await servers.start([frames([delta({ content: "Hi" }), "data: [DONE]\n\n"]), frames([call, "data: [DONE]\n\n"])]);
    const debug: string[] = [];
    const model = modelOn(fake.url, { debug: (l) => debug.push(l) });
    expect((await collect(model.step(request()))).at(-1)).toMatchObject({ type: "finish", reason: "stop" });
    const events = await collect(model.step(request()));
    expect(events.filter((e) => e.type === "tool-call")).toEqual([{ type: "tool-call", id: "c1", name: "bash", input: { command: "ls" } }]);
    expect(events.at(-1)).toMatchObject({ type: "finish", reason: "tool-calls" });
    expect(fake.requests).toHaveLength(2);
    expect(debug).toContain("model stream: the server sent [DONE] without a finish reason; taken as tool_calls");
  });

  it("ends an answer cut off at its output limit as such when an error chunk follows, the error in the log", async () => {
    const error = sse({
      object: "chat.completion.chunk",
      error: { code: 502, message: "Provider returned error" },
      choices: [{ index: 0, delta: {}, finish_reason: "error" }],
    });
    const fake = await servers.start([frames([delta({ content: "Half" }), delta({}, "length"), error, "data: [DONE]\n\n"])]);
    const lines: string[] = [];
    const events = await collect(modelOn(fake.url, { log: (l) => lines.push(l) }).step(request()));
    expect(events).toEqual([
      { type: "text", text: "Half" },
      { type: "finish", usage: {}, reason: "length" },
    ]);
    expect(lines).toEqual([
      "the model server sent an error after the answer was cut off at the model's output limit; the answer ends there: the model server failed mid-response: Provider returned error",
    ]);
  });

  it("reads Kimi's tool calls without index and the usage inside its choice, through Moonshot's provider or the compatible one", async () => {
    const kimi = [
      delta({
        tool_calls: [
          { id: "b:0", type: "function", function: { name: "bash", arguments: "" } },
          { id: "b:1", type: "function", function: { name: "bash", arguments: "" } },
        ],
      }),
      delta({ tool_calls: [{ function: { arguments: '{"command":"ls"}' } }, { function: { arguments: '{"command":"pwd"}' } }] }),
      sse({
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta: {}, finish_reason: "tool_calls", usage: { prompt_tokens: 10, completion_tokens: 7, total_tokens: 17 } }],
      }),
      "data: [DONE]\n\n",
    ];
    for (const provider of ["moonshotai", "openai-compatible"] as const) {
      const fake = await servers.start([frames(kimi)]);
      const events = await collect(modelOn(fake.url, { provider }).step(request()));
      expect(events, provider).toEqual([
        { type: "tool-call", id: "b:0", name: "bash", input: { command: "ls" } },
        { type: "tool-call", id: "b:1", name: "bash", input: { command: "pwd" } },
        { type: "finish", usage: { inputTokens: 10, outputTokens: 7 }, reason: "tool-calls" },
      ]);
    }
  });

  it("stops a step whose output passes the cap, naming it, and cancels the request", async () => {
    const fake = await servers.start([floodText(5000, "x".repeat(100))]);
    const events = await collect(modelOn(fake.url, { maxOutputChars: 10_000 }).step(request()));
    const texts = events.filter((e) => e.type === "text");
    expect(texts.map((e) => (e as { text: string }).text).join("").length).toBeLessThanOrEqual(10_100);
    expect(events.at(-1)).toEqual({
      type: "error",
      error: { kind: "bad-response", message: "the model's output passed 10000 characters in one step; stopped" },
    });
  });

  it("sends every request through the proxy of HTTP_PROXY, the model server named by a host only the proxy knows", async () => {
    const fake = await servers.start([text("through the proxy")]);
    proxy = await startConnectProxy();
    const port = new URL(fake.url).port;
    const settings = proxySettings({ HTTP_PROXY: proxy.url, NO_PROXY: "example.com" });
    const events = await collect(modelOn(`http://model.test:${port}/v1`, { proxy: settings }).step(request()));
    expect(events[0]).toEqual({ type: "text", text: "through the proxy" });
    expect(proxy.tunnels).toEqual([`model.test:${port}`]);
  });

  it("keeps loopback and NO_PROXY hosts direct", async () => {
    const fake = await servers.start([text("direct")]);
    proxy = await startConnectProxy();
    const events = await collect(modelOn(fake.url, { proxy: proxySettings({ https_proxy: proxy.url, http_proxy: proxy.url }) }).step(request()));
    expect(events[0]).toEqual({ type: "text", text: "direct" });
    expect(proxy.tunnels).toEqual([]);
  });

  it("talks to OpenAI's own endpoint through @ai-sdk/openai's chat model", async () => {
    const fake = await servers.start([text("from openai")]);
    const redirect: typeof fetch = (input, init) =>
      fetch(String(input instanceof Request ? input.url : input).replace("https://api.openai.com/v1", fake.url), init);
    const events = await collect(aiSdkModel({ model: "gpt-4.1-mini", apiKey: "sk-t", api: "chat", fetch: redirect }).step(request()));
    expect(events[0]).toEqual({ type: "text", text: "from openai" });
    expect(fake.requests[0]?.body).toMatchObject({ model: "gpt-4.1-mini", stream: true, stream_options: { include_usage: true } });
  });

  it("reads <think> as reasoning by default, and as text with the tag turned off", async () => {
    const answer = () =>
      frames([delta({ role: "assistant", content: "<think>hm</think>" }), delta({ content: "Yes." }), delta({}, "stop"), "data: [DONE]\n\n"]);
    const fake = await servers.start([answer(), answer()]);
    const on = await collect(modelOn(fake.url).step(request()));
    expect(on.slice(0, 2)).toEqual([
      { type: "reasoning", text: "hm" },
      { type: "text", text: "Yes." },
    ]);
    const off = await collect(modelOn(fake.url, { reasoningTag: "" }).step(request()));
    expect(
      off
        .filter((e) => e.type === "text")
        .map((e) => (e as { text: string }).text)
        .join(""),
    ).toBe("<think>hm</think>Yes.");
  });

  it("sends no reasoning back to a chat server but Moonshot, and the Responses API's back with its item", async () => {
    const fake = await servers.start([text("a"), text("b")]);
    const history = request({
      messages: [
        { role: "user", text: "hi" },
        { role: "assistant", text: "A", toolCalls: [], reasoning: [{ text: "secret thoughts" }] },
        { role: "user", text: "more" },
      ],
    });
    await collect(modelOn(fake.url).step(history));
    expect(JSON.stringify(fake.requests[0]?.body)).not.toContain("secret thoughts");
    // Moonshot asks for a thinking model's reasoning back, as the assistant message's reasoning_content.
    await collect(modelOn(fake.url, { provider: "moonshotai" }).step(history));
    const moonshot = fake.requests[1]?.body as { messages?: unknown[] } | undefined;
    expect(moonshot?.messages).toContainEqual({ role: "assistant", content: "A", reasoning_content: "secret thoughts" });
  });
});
