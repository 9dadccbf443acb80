/** Small writers of wire text for the corpus: one SSE frame of a JSON value, a comment, `[DONE]`. */

/** `data: <json>` and the blank line that ends the event. */
export const sse = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`;

/** A named event (`event: <type>`), as the Responses API sends them. */
export const event = (type: string, value: Record<string, unknown>): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...value })}\n\n`;

/** An SSE comment line (OpenRouter's `: OPENROUTER PROCESSING`, DeepSeek's keep-alives). */
export const comment = (text: string): string => `: ${text}\n\n`;

export const DONE = "data: [DONE]\n\n";

/** A chat-completions chunk of `base` (id, model, created, and whatever else that server adds) with `choices`. */
export const chunk = (base: Record<string, unknown>, choices: readonly unknown[], extra: Record<string, unknown> = {}): string =>
  sse({ ...base, object: "chat.completion.chunk", choices, ...extra });

/** One choice of a chunk: index 0, this delta, this finish reason (null while streaming). */
export const choice = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  index: 0,
  delta,
  finish_reason: finish,
  ...extra,
});
