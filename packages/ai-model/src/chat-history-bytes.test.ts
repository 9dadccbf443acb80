import { NO_RESULT, type Message, type ModelEvent, type ModelRequest, type ToolSpec } from "@mm/core";
import { afterEach, describe, expect, it } from "vitest";
import { fakeServerKeeper, type FakeOpenAI } from "../../fake-openai/src/index.js";
import { aiSdkModel } from "./ai-sdk-model.js";
import { chatHistoryBytes } from "./chat-history-bytes.js";
import { nodeHttpFetch } from "./node-http-fetch.js";

const servers = fakeServerKeeper();
afterEach(servers.close);

const bash: ToolSpec = { name: "bash", description: "Run.", inputSchema: { type: "object", properties: { command: { type: "string" } } } };
const PNG = { data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", mimeType: "image/png" };

const drain = async (events: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> => {
  const out: ModelEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
};

const request = (messages: readonly Message[], system = "You are Bob. \"quoted\" \\ é → 🎉"): ModelRequest => ({
  system,
  messages,
  tools: [bash],
  signal: new AbortController().signal,
});

/** The bodies the fake server got for `messages` from the kept-bytes path and from the provider's own conversion. */
const bothBodies = async (fake: FakeOpenAI, steps: readonly (readonly Message[])[]) => {
  const kept = aiSdkModel({ model: "fake-model", baseURL: fake.url, apiKey: "sk-test", api: "chat", maxRetries: 0 });
  // A fetch of its own: the provider converts and serialises the prompt itself.
  const plain = aiSdkModel({ model: "fake-model", baseURL: fake.url, apiKey: "sk-test", api: "chat", maxRetries: 0, fetch: nodeHttpFetch() });
  const pairs: [unknown, unknown][] = [];
  for (const messages of steps) {
    const from = fake.requests.length;
    expect((await drain(kept.step(request(messages)))).at(-1)?.type).toBe("finish");
    expect((await drain(plain.step(request(messages)))).at(-1)?.type).toBe("finish");
    pairs.push([fake.requests[from]?.body, fake.requests[from + 1]?.body]);
  }
  return pairs;
};

const everyKind: Message[] = [
  { role: "system", text: "A system line in the history joins the system prompt." },
  { role: "user", text: "first \"question\"\n\twith\\escapes\u0001 and ünïcödé 🎉", images: [PNG, { data: "AAAA", mimeType: "image/*" }] },
  { role: "assistant", text: "", toolCalls: [], reasoning: [{ text: "only thinking" }] },
  { role: "assistant", text: "Looking.", toolCalls: [{ id: "call_1", name: "bash", input: { command: "ls -la", nested: { deep: [1, "two", null, true] } } }] },
  { role: "tool", callId: "call_1", toolName: "bash", status: "completed", output: "a.txt\nexit code 0", images: [PNG] },
  { role: "assistant", text: "Two at once.", toolCalls: [
    { id: "call_2", name: "bash", input: "not json" },
    { id: "call_3", name: "bash", input: [1, 2] },
    { id: "call_4", name: "bash", input: '{"command":"echo raw"}' },
  ], reasoning: [{ text: "hm", item: "rs_1", encrypted: "enc" }] },
  { role: "tool", callId: "call_3", toolName: "bash", status: "failed", output: "refused" },
  { role: "tool", callId: "call_2", toolName: "bash", status: "completed", output: "late result, recorded first" },
  { role: "tool", callId: "call_99", toolName: "bash", status: "completed", output: "a result without its call is dropped" },
  { role: "user", text: "summary of what came before", summary: true },
  { role: "assistant", text: "plain answer", toolCalls: [] },
  { role: "user", text: "" },
];

describe("chat history as kept bytes", () => {
  it("writes the same request body as the provider's own conversion, for every kind of message", async () => {
    const fake = await servers.start();
    const [kept, plain] = (await bothBodies(fake, [everyKind]))[0]!;
    expect(kept).toEqual(plain);
    const messages = (kept as { messages: { role: string; content: unknown }[] }).messages;
    expect(messages[0]).toEqual({ role: "system", content: `You are Bob. "quoted" \\ é → 🎉\n\nA system line in the history joins the system prompt.` });
    expect(JSON.stringify(messages)).toContain(NO_RESULT);
  });

  it("stays the same body step after step as the history grows, results arrive late and the history is replaced", async () => {
    const fake = await servers.start();
    const base: Message[] = [{ role: "user", text: "go" }];
    const call: Message = { role: "assistant", text: "", toolCalls: [{ id: "call_1", name: "bash", input: { command: "true" } }] };
    const result: Message = { role: "tool", callId: "call_1", toolName: "bash", status: "completed", output: "done" };
    const steps: Message[][] = [
      base,
      [...base, call],
      [...base, call, result],
      [...base, call, result, { role: "assistant", text: "ok", toolCalls: [] }, { role: "user", text: "more" }],
      [{ role: "user", text: "compacted", summary: true }, { role: "user", text: "after" }],
      [...base, call, { role: "user", text: "a different branch" }],
    ];
    for (const [kept, plain] of await bothBodies(fake, steps)) expect(kept).toEqual(plain);
  });

  it("rewrites only what changed: the kept bytes of a grown history start with the previous ones", () => {
    const history = chatHistoryBytes();
    const first: Message[] = [{ role: "user", text: "one" }, { role: "assistant", text: "two", toolCalls: [] }];
    const a = history.encode(first);
    const before = Buffer.from(a.bytes).toString();
    a.release();
    const b = history.encode([...first, { role: "user", text: "three" }]);
    expect(Buffer.from(b.bytes).toString()).toBe(`${before},{"role":"user","content":"three"}`);
    expect(b.bytes.buffer).toBe(a.bytes.buffer);
    b.release();
  });

  it("a history still being sent is not overwritten: a second request on it gets bytes of its own", () => {
    const history = chatHistoryBytes();
    const messages: Message[] = [{ role: "user", text: "one" }];
    const sending = history.encode(messages);
    const other = history.encode([...messages, { role: "user", text: "two" }]);
    expect(Buffer.from(sending.bytes).toString()).toBe('{"role":"user","content":"one"}');
    expect(Buffer.from(other.bytes).toString()).toBe('{"role":"user","content":"one"},{"role":"user","content":"two"}');
    expect(other.bytes.buffer).not.toBe(sending.bytes.buffer);
    sending.release();
  });
});
