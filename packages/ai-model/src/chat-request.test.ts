/**
 * Drift check: the request mm's chat path writes against the one the AI SDK's provider writes for the
 * same step (its `doStream`, given the prompt `toProviderPrompt` makes), body as parsed JSON and
 * headers but the user agent, for several histories and model ids.
 */
import type { LanguageModelV3FunctionTool, JSONSchema7 } from "@ai-sdk/provider";
import { createOpenAI } from "@ai-sdk/openai";
import type { Message, ToolSpec } from "@mm/core";
import { describe, expect, it } from "vitest";
import { chatHistoryBytes, systemTextOf } from "./chat-history-bytes.js";
import { CHAT_USER_AGENT, chatCompletionsUrl, chatHeaders, chatRequestBody, isProviderReasoningModel } from "./chat-request.js";
import { toProviderPrompt } from "./to-provider-prompt.js";

const tools: ToolSpec[] = [
  { name: "bash", description: "Run a command.", inputSchema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } },
  { name: "read_file", description: "Read \"a\" file → é", inputSchema: { type: "object", properties: { path: { type: "string" }, offset: { type: "integer" } } } },
];
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const histories: Record<string, Message[]> = {
  empty: [],
  text: [
    { role: "user", text: "hi \"there\"\n\tü 🎉" },
    { role: "assistant", text: "Hello.", toolCalls: [] },
    { role: "user", text: "more" },
  ],
  "tool calls and results": [
    { role: "system", text: "A system line joins the prompt." },
    { role: "user", text: "list" },
    { role: "assistant", text: "Looking.", toolCalls: [{ id: "call_1", name: "bash", input: { command: "ls" } }, { id: "call_2", name: "read_file", input: "not json" }] },
    { role: "tool", callId: "call_2", toolName: "read_file", status: "failed", output: "refused" },
    { role: "tool", callId: "call_1", toolName: "bash", status: "completed", output: "a.txt\nexit code 0" },
    { role: "assistant", text: "", toolCalls: [{ id: "call_3", name: "bash", input: [1, 2] }] },
    { role: "user", text: "stop", summary: true },
  ],
  images: [
    { role: "user", text: "what is it?", images: [{ data: PNG, mimeType: "image/png" }, { data: "AAAA", mimeType: "image/*" }] },
    { role: "assistant", text: "", toolCalls: [{ id: "call_1", name: "snap", input: {} }] },
    { role: "tool", callId: "call_1", toolName: "snap", status: "completed", output: "[1 image]", images: [{ data: PNG, mimeType: "image/png" }] },
  ],
  reasoning: [
    { role: "user", text: "think" },
    { role: "assistant", text: "", toolCalls: [], reasoning: [{ text: "only thinking" }] },
    { role: "assistant", text: "Done.", toolCalls: [], reasoning: [{ text: "hm", item: "rs_1", encrypted: "enc" }] },
    { role: "user", text: "again" },
  ],
};

type Sent = { readonly url: string; readonly headers: Record<string, string>; readonly body: unknown };

/** The request the provider sends for one step (its stream answered at once by a canned empty event stream). */
const providerRequest = async (model: string, system: string, messages: readonly Message[], specs: readonly ToolSpec[], headers?: Record<string, string>): Promise<Sent> => {
  let sent: Sent | undefined;
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    sent = { url: String(input), headers: Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v])), body: JSON.parse(String(init?.body)) };
    return new Response('data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\ndata: [DONE]\n\n', { headers: { "content-type": "text/event-stream" } });
  }) as typeof globalThis.fetch;
  const provider = createOpenAI({ apiKey: "sk-test", baseURL: "http://127.0.0.1:9/v1/", fetch, ...(headers ? { headers } : {}) });
  const providerTools: LanguageModelV3FunctionTool[] = specs.map((s) => ({ type: "function", name: s.name, description: s.description, inputSchema: s.inputSchema as JSONSchema7 }));
  const { stream } = await provider.chat(model).doStream({
    prompt: toProviderPrompt(system, messages, { imagesInToolResults: false }),
    ...(providerTools.length > 0 ? { tools: providerTools, toolChoice: { type: "auto" } } : {}),
    includeRawChunks: true,
  });
  await stream.pipeTo(new WritableStream());
  return sent!;
};

/** The request mm's chat path sends for the same step. */
const ownRequest = (model: string, system: string, messages: readonly Message[], specs: readonly ToolSpec[], headers?: Record<string, string>): Sent => {
  const history = chatHistoryBytes().encode(messages);
  const body = Buffer.concat(chatRequestBody({ model, systemText: systemTextOf(system, messages), history: history.bytes, tools: specs })).toString("utf8");
  history.release();
  return { url: chatCompletionsUrl("http://127.0.0.1:9/v1/").href, headers: chatHeaders("sk-test", headers), body: JSON.parse(body) };
};

const withoutAgent = (headers: Record<string, string>): Record<string, string> => {
  const { "user-agent": _agent, ...rest } = headers;
  return rest;
};

describe("the chat request mm writes", () => {
  for (const [name, messages] of Object.entries(histories)) {
    for (const model of ["gpt-4.1-mini", "gpt-5-mini", "o3", "gpt-5-chat-latest", "llama-3"]) {
      it(`equals the provider's for a history of ${name}, model ${model}`, async () => {
        const system = "You are Bob. \"quoted\" \\ é";
        const theirs = await providerRequest(model, system, messages, tools);
        const ours = ownRequest(model, system, messages, tools);
        expect(ours.body).toEqual(theirs.body);
        expect(ours.url).toBe(theirs.url);
        expect(withoutAgent(ours.headers)).toEqual(withoutAgent(theirs.headers));
      });
    }
  }

  it("equals the provider's without tools and without a system prompt", async () => {
    const messages = histories.text!;
    expect(ownRequest("m", "", messages, []).body).toEqual((await providerRequest("m", "", messages, [])).body);
    expect(ownRequest("m", "", [], []).body).toEqual((await providerRequest("m", "", [], [])).body);
  });

  it("is the provider's bytes exactly, not only the same JSON", async () => {
    const messages = histories["tool calls and results"]!;
    const theirs = await providerRequest("gpt-4.1-mini", "s", messages, tools);
    const history = chatHistoryBytes().encode(messages);
    const ours = Buffer.concat(chatRequestBody({ model: "gpt-4.1-mini", systemText: systemTextOf("s", messages), history: history.bytes, tools })).toString("utf8");
    expect(ours).toBe(JSON.stringify(theirs.body));
  });

  it("sends the configured headers over its own, and its user agent after a configured one", async () => {
    const extra = { "X-Trace": "1", Authorization: "Bearer other", "User-Agent": "editor/2" };
    const theirs = await providerRequest("m", "s", [], tools, extra);
    const ours = ownRequest("m", "s", [], tools, extra);
    expect(withoutAgent(ours.headers)).toEqual(withoutAgent(theirs.headers));
    expect(ours.headers["user-agent"]).toBe(`editor/2 ${CHAT_USER_AGENT}`);
    expect(theirs.headers["user-agent"]).toMatch(/^editor\/2 ai-sdk\/openai\//);
  });

  it("sends the system prompt as a developer message for the provider's reasoning models only", () => {
    expect(["o1", "o3-mini", "o4", "gpt-5", "gpt-5-mini", "gpt-5.1-chat", "gpt-6"].every(isProviderReasoningModel)).toBe(true);
    expect(["gpt-4.1-mini", "gpt-4o", "gpt-5-chat-latest", "omni", "llama"].some(isProviderReasoningModel)).toBe(false);
  });
});
