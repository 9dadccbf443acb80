/**
 * The replies a fake OpenAI server can be scripted with: plain data built by small constructors, so a
 * test reads as a script (`text(["Hel", "lo"])`, `status(429, undefined, { "retry-after-ms": "10" })`).
 */

/**
 * Token counts reported in the usage chunk; unset counts are estimated from the request and reply.
 * `cachedTokens` (chat: `prompt_tokens_details.cached_tokens`) and `cost` (OpenRouter's `usage.cost`) are sent only when set.
 */
export type FakeUsage = { readonly promptTokens?: number; readonly completionTokens?: number; readonly cachedTokens?: number; readonly cost?: number };

/** One tool call the fake model makes; `arguments` given as a string is sent verbatim (e.g. broken JSON). */
export type FakeToolCall = {
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>> | string;
  /** The model-side call id; generated when absent. */
  readonly id?: string;
};

export type TextReply = {
  readonly kind: "text";
  readonly chunks: readonly string[];
  /** Reasoning streamed before the text (chat: as `reasoning_content` deltas; Responses: a reasoning item's summary, with encrypted content). */
  readonly reasoning?: readonly string[];
  readonly usage?: FakeUsage;
  /** Pause before each streamed frame (streaming only): a model still producing its answer. */
  readonly delayMs?: number;
};
export type ToolCallsReply = {
  readonly kind: "tool-calls";
  readonly calls: readonly FakeToolCall[];
  readonly text?: string;
  readonly usage?: FakeUsage;
};
export type StatusReply = {
  readonly kind: "status";
  readonly code: number;
  /** A JSON-able body, or a string sent as is; defaults to an OpenAI-style `{ error: { message, type, code } }`. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
};
/** Streams these text chunks, then destroys the socket without ending the response. */
export type DropAfterReply = { readonly kind: "drop-after"; readonly chunks: readonly string[] };
/** Sends the response headers, then nothing for `ms`; then serves `then`, or destroys the socket. */
export type StallReply = { readonly kind: "stall"; readonly ms: number; readonly then?: Reply };
/** `count` chunks of `chunkText`, written in batches as fast as the client reads them. */
export type FloodReply = {
  readonly kind: "flood";
  readonly count: number;
  readonly chunkText: string;
  readonly usage?: FakeUsage;
};

/**
 * A stream written verbatim: each frame is wire text (`data: {...}\n\n`, an SSE comment, anything), sent
 * `delayMs` apart; then the response ends, or (`end: "drop"`) the socket is destroyed. What plays the
 * compatibility corpus: the shapes real servers stream, whatever the request asked.
 */
export type FramesReply = {
  readonly kind: "frames";
  readonly frames: readonly string[];
  readonly delayMs?: number;
  readonly end?: "close" | "drop";
  /** The response's content type; `text/event-stream` by default. */
  readonly contentType?: string;
};

export type Reply = TextReply | ToolCallsReply | StatusReply | DropAfterReply | StallReply | FloodReply | FramesReply;

/** One request as the server received it: body parsed as JSON (undefined when it was not JSON). */
export type RecordedRequest = {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /**
   * When the request's headers, the first byte of its body and the last one were read, and when the
   * answer was handed to the socket whole (`answeredAt`, once it is), on this process's
   * `performance.now()` clock (a benchmark in the same process compares them with its own).
   */
  readonly timing?: {
    readonly arrivedAt: number;
    readonly firstByteAt: number;
    readonly lastByteAt: number;
    readonly answeredAt?: number;
    /** When each frame of a paced (`delayMs`) answer was handed to the socket. */
    readonly framesWrittenAt?: number[];
  };
};

/** What the queue holds: a fixed reply, or one computed from the request it answers. */
export type ScriptedReply = Reply | ((request: RecordedRequest) => Reply);

export const text = (chunks: readonly string[] | string, usage?: FakeUsage): TextReply => ({
  kind: "text",
  chunks: typeof chunks === "string" ? [chunks] : chunks,
  ...(usage ? { usage } : {}),
});

/** Reasoning deltas (as DeepSeek, vLLM or LM Studio send `reasoning_content`), then the text. */
export const thinking = (reasoning: readonly string[], chunks: readonly string[] | string, usage?: FakeUsage): TextReply => ({
  ...text(chunks, usage),
  reasoning,
});

/** Text streamed one chunk every `delayMs`: something to cancel mid-stream. */
export const slowText = (chunks: readonly string[], delayMs: number, usage?: FakeUsage): TextReply => ({
  ...text(chunks, usage),
  delayMs,
});

export const toolCalls = (calls: readonly FakeToolCall[], text?: string, usage?: FakeUsage): ToolCallsReply => ({
  kind: "tool-calls",
  calls,
  ...(text !== undefined ? { text } : {}),
  ...(usage ? { usage } : {}),
});

export const status = (code: number, body?: unknown, headers?: Readonly<Record<string, string>>): StatusReply => ({
  kind: "status",
  code,
  ...(body !== undefined ? { body } : {}),
  ...(headers ? { headers } : {}),
});

export const frames = (wire: readonly string[], options: Omit<FramesReply, "kind" | "frames"> = {}): FramesReply => ({
  kind: "frames",
  frames: wire,
  ...options,
});

export const dropAfter = (chunks: readonly string[] | string): DropAfterReply => ({
  kind: "drop-after",
  chunks: typeof chunks === "string" ? [chunks] : chunks,
});

export const stall = (ms: number, then?: Reply): StallReply => ({ kind: "stall", ms, ...(then ? { then } : {}) });

export const floodText = (count: number, chunkText: string, usage?: FakeUsage): FloodReply => ({
  kind: "flood",
  count,
  chunkText,
  ...(usage ? { usage } : {}),
});

/** The OpenAI-style error body sent by `status` replies without a body of their own. */
export const openAIErrorBody = (code: number): { error: { message: string; type: string; code: string | null } } => {
  const [type, message] =
    code === 401
      ? ["invalid_request_error", "Incorrect API key provided."]
      : code === 429
        ? ["rate_limit_exceeded", "Rate limit reached, please try again later."]
        : code >= 500
          ? ["server_error", "The server had an error while processing your request."]
          : ["invalid_request_error", `Request failed with status ${code}.`];
  return { error: { message, type, code: code === 401 ? "invalid_api_key" : null } };
};
