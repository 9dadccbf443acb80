/**
 * The Model port: one model step, streamed and abortable. The core runs the tool loop itself, so a
 * step answers with text and tool calls and then finishes; it never executes anything.
 */
import type { Message } from "../history/message.js";

/** A tool as the model sees it: name, description and a JSON Schema for its input. */
export type ToolSpec = {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
};

/** One model step: the system prompt, the conversation and the tools offered. */
export type ModelRequest = {
  /** The model to ask, when not the adapter's default (a session's choice). */
  readonly model?: string | undefined;
  /** The reasoning effort to ask for (`low`, `medium`, `high`), when the session chose one. */
  readonly effort?: string | undefined;
  readonly system: string;
  /** The conversation after the system prompt; every tool call has its result. */
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSpec[];
  readonly signal: AbortSignal;
};

/** Tokens of a step, as the model reported them. */
export type Usage = {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  /** Of `inputTokens`, those the server read from its prompt cache. */
  readonly cachedInputTokens?: number;
  /** What the step cost in US dollars, when the server said (OpenRouter's `usage.cost`). */
  readonly cost?: number;
};

/**
 * Why the model stopped: it was done, it asked for tools, it hit its output limit (`length`: the
 * answer is cut off), the server's content filter stopped it, or another reason.
 */
export type FinishReason = "stop" | "tool-calls" | "length" | "content-filter" | "other";

/** A failure of a step, already explained in one line fit for the user. */
export type ModelError = {
  /**
   * `quota`: the account is out of credit; `too-large`: the request exceeds what the model takes;
   * `images-refused`: the server does not take the request's images (none is retried).
   */
  readonly kind: "auth" | "rate-limit" | "quota" | "too-large" | "images-refused" | "server" | "network" | "bad-response" | "config" | "aborted";
  readonly message: string;
};

/** What a step streams: text deltas and tool calls, then one `finish` or `error`. */
export type ModelEvent =
  | { readonly type: "text"; readonly text: string }
  /** A piece of the model's reasoning (`item`: the provider's id of the reasoning item it belongs to). */
  | { readonly type: "reasoning"; readonly text: string; readonly item?: string }
  /** A reasoning item ended; `encrypted` is what the provider needs to be sent it back. */
  | { readonly type: "reasoning-end"; readonly item?: string; readonly encrypted?: string }
  | { readonly type: "tool-call"; readonly id: string; readonly name: string; readonly input: unknown }
  /** The step is complete; `reason` absent counts as `stop`. */
  | { readonly type: "finish"; readonly usage: Usage; readonly reason?: FinishReason }
  | { readonly type: "error"; readonly error: ModelError };

/**
 * Contract: `step` never throws and never rejects; its stream ends with exactly one `finish` or
 * `error` event. When `signal` aborts, the stream ends promptly (with an `aborted` error).
 */
export type Model = {
  readonly step: (request: ModelRequest) => AsyncIterable<ModelEvent>;
};
