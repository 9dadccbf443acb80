/**
 * A Model for tests: each step answers with the next scripted reply and records the request, like
 * the AI SDK's mock models. A reply can wait for a signal to simulate a long stream.
 */
import type { Model, ModelError, ModelEvent, ModelRequest, Usage } from "../ports/model.js";

/** One scripted step: events, a hang until aborted, or a function of the request. */
export type ScriptedReply =
  | { readonly kind: "events"; readonly events: readonly ModelEvent[] }
  | { readonly kind: "hang"; readonly before: readonly ModelEvent[] }
  | ((request: ModelRequest) => ScriptedReply);

/** A Model answering from a script and recording every request. */
export type ScriptedModel = Model & {
  readonly requests: ModelRequest[];
  readonly push: (...replies: ScriptedReply[]) => void;
};

const DEFAULT_USAGE: Usage = { inputTokens: 100, outputTokens: 10 };

/** A reply streaming text chunks then finishing. */
export const textReply = (chunks: string | readonly string[], usage: Usage = DEFAULT_USAGE): ScriptedReply => ({
  kind: "events",
  events: [...(typeof chunks === "string" ? [chunks] : chunks).map((text): ModelEvent => ({ type: "text", text })), { type: "finish", usage }],
});

/** A reply calling tools (with an optional text first) then finishing. */
export const toolReply = (calls: readonly { name: string; input: unknown }[], text = "", usage: Usage = DEFAULT_USAGE): ScriptedReply => ({
  kind: "events",
  events: [
    ...(text !== "" ? [{ type: "text", text } as const] : []),
    ...calls.map((c, i): ModelEvent => ({ type: "tool-call", id: `model_${i}`, name: c.name, input: c.input })),
    { type: "finish", usage },
  ],
});

/** A reply streaming `before`, then failing with `error`. */
export const errorReply = (error: ModelError, before: readonly ModelEvent[] = []): ScriptedReply => ({
  kind: "events",
  events: [...before, { type: "error", error }],
});

/** A reply that streams `before`, then waits until the request is aborted. */
export const hangingReply = (before: readonly ModelEvent[] = []): ScriptedReply => ({ kind: "hang", before });

const abortedEvent: ModelEvent = { type: "error", error: { kind: "aborted", message: "cancelled" } };

/** A model answering each step with the next reply (`ok` once the script is spent). */
export const scriptedModel = (...initial: ScriptedReply[]): ScriptedModel => {
  const queue = [...initial];
  const requests: ModelRequest[] = [];
  async function* step(request: ModelRequest): AsyncIterable<ModelEvent> {
    requests.push(request);
    let reply = queue.shift() ?? textReply("ok");
    while (typeof reply === "function") reply = reply(request);
    const before = reply.kind === "events" ? reply.events : reply.before;
    for (const event of before) {
      if (request.signal.aborted) {
        yield abortedEvent;
        return;
      }
      yield event;
      await Promise.resolve();
    }
    if (reply.kind === "hang") {
      await new Promise<void>((resolve) => {
        if (request.signal.aborted) resolve();
        request.signal.addEventListener("abort", () => resolve(), { once: true });
      });
      yield abortedEvent;
    }
  }
  return { requests, push: (...replies) => queue.push(...replies), step };
};
