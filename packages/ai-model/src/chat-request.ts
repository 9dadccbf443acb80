/**
 * The HTTP request of a chat-completions step, written by mm rather than by the AI SDK's provider,
 * and the same JSON it wrote (chat-request.test.ts compares the two): `model`, `messages` (the system
 * prompt, as `developer` for OpenAI's reasoning models as the provider does, then the history as the
 * kept bytes of chat-history-bytes.ts), the tools with `tool_choice: "auto"` when there are any, then
 * `stream: true` and `stream_options: {include_usage: true}`, in the provider's key order. Headers:
 * the JSON content type, `Authorization: Bearer <key>`, the configured extra ones (which win), and a
 * user agent naming mm (after a configured one).
 */
import type { ToolSpec } from "@mm/core";
import type { HttpRequest } from "./node-http-fetch.js";

/** The user agent mm's own chat requests add (the provider sent `ai-sdk/openai/<version> …`). */
export const CHAT_USER_AGENT = `mm-ai-model runtime/node.js/${typeof process !== "undefined" ? process.version : "unknown"}`;

const gptVersion = (id: string): { readonly major: number; readonly minor: number | undefined; readonly variant: string | undefined } | undefined => {
  const match = /^gpt-(\d+)(?:\.(\d+))?(?:-(.+))?$/.exec(id);
  return match === null ? undefined : { major: Number(match[1]), minor: match[2] === undefined ? undefined : Number(match[2]), variant: match[3] };
};

/**
 * Whether the provider treats `id` as an OpenAI reasoning model (its system prompt then goes as a
 * `developer` message): the o-series, and gpt-5 and later except their `-chat` variants without a minor version.
 */
export const isProviderReasoningModel = (id: string): boolean => {
  if (/^o(\d+)(?:-|$)/.test(id)) return true;
  const gpt = gptVersion(id);
  if (gpt === undefined || gpt.major < 5) return false;
  return !(gpt.minor === undefined && (gpt.variant?.startsWith("chat") ?? false));
};

/** The tools of a request in the chat API's form, as JSON text (kept per tool list: the core reuses its arrays). */
export const chatToolsJson = (() => {
  const kept = new WeakMap<readonly ToolSpec[], string>();
  return (specs: readonly ToolSpec[]): string => {
    let json = kept.get(specs);
    if (json === undefined) {
      json = JSON.stringify(specs.map((spec) => ({ type: "function", function: { name: spec.name, description: spec.description, parameters: spec.inputSchema } })));
      kept.set(specs, json);
    }
    return json;
  };
})();

/** What one request is made of. */
export type ChatRequestParts = {
  readonly model: string;
  readonly systemText: string;
  /** The history's messages as JSON without the surrounding brackets (chat-history-bytes.ts). */
  readonly history: Uint8Array;
  readonly tools: readonly ToolSpec[];
};

/** The body as the byte chunks that leave in order: the head, the history's kept bytes, the tail. */
export const chatRequestBody = (parts: ChatRequestParts): Uint8Array[] => {
  const system = parts.systemText === "" ? "" : JSON.stringify({ role: isProviderReasoningModel(parts.model) ? "developer" : "system", content: parts.systemText });
  const head = `{"model":${JSON.stringify(parts.model)},"messages":[${system}${system !== "" && parts.history.length > 0 ? "," : ""}`;
  const tools = parts.tools.length > 0 ? `,"tools":${chatToolsJson(parts.tools)},"tool_choice":"auto"` : "";
  const tail = `]${tools},"stream":true,"stream_options":{"include_usage":true}}`;
  return parts.history.length === 0 ? [Buffer.from(head + tail, "utf8")] : [Buffer.from(head, "utf8"), parts.history, Buffer.from(tail, "utf8")];
};

/** The headers of every chat request on `apiKey` with the configured `extra` ones. */
export const chatHeaders = (apiKey: string, extra: Readonly<Record<string, string>> | undefined): Record<string, string> => {
  const headers: Record<string, string> = { "content-type": "application/json", authorization: `Bearer ${apiKey}` };
  for (const [name, value] of Object.entries(extra ?? {})) if (value != null) headers[name.toLowerCase()] = value;
  headers["user-agent"] = headers["user-agent"] ? `${headers["user-agent"]} ${CHAT_USER_AGENT}` : CHAT_USER_AGENT;
  return headers;
};

/** `<baseURL>/chat/completions` (the provider's default base URL and its trailing-slash rule). */
export const chatCompletionsUrl = (baseURL: string): URL => new URL(`${baseURL.replace(/\/$/, "")}/chat/completions`);

/** The request of one step. */
export const chatRequest = (url: URL, headers: Readonly<Record<string, string>>, parts: ChatRequestParts, signal: AbortSignal): HttpRequest => ({
  url,
  method: "POST",
  headers,
  body: chatRequestBody(parts),
  signal,
});
