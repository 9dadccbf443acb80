/**
 * A chat-completions event stream as mm's model events, one `data:` payload at a time, the way the
 * AI SDK's chat model turned it into stream parts and `ai-sdk-model.ts` into events: per chunk, the
 * reasoning (`delta.reasoning_content` / `delta.reasoning`), then the text, then the refusal as text;
 * tool calls gathered per `index` (their `id`, `function.name`, `function.arguments` pieces) and
 * reported when the stream ends, in index order, before the finish with the last usage seen. An
 * `{"error": …}` frame ends the step: before any output it is a failed call (retried like an HTTP
 * error), after output an error event. A payload mm cannot use ends it too.
 */
import type { ModelEvent, Usage } from "@mm/core";
import type { StreamErrorFrame } from "./api-call-error.js";
import { invalidAnswer } from "./api-call-error.js";
import { chatChunkOf, parseJson, type ChunkUsage, type ToolCallDelta } from "./chat-chunk.js";
import { rawReasoning } from "./reasoning-parts.js";

/** What ends a stream before its end: an error frame before any output, or a failure to report. */
export type StreamStop = { readonly kind: "early-error"; readonly frame: StreamErrorFrame } | { readonly kind: "failed"; readonly error: unknown };

type Call = { readonly id: string; readonly wireId: string | undefined; readonly index: number; readonly sequence: number; readonly name: string; args: string };

const ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A random 16-character id, as the AI SDK makes for a call without one. */
const generatedId = (): string => {
  let id = "";
  for (let i = 0; i < 16; i++) id += ID_ALPHABET[(Math.random() * ID_ALPHABET.length) | 0];
  return id;
};

/** A tool call's arguments as the model sent them: parsed JSON, `{}` for none, the raw text when not JSON. */
export const parseInput = (text: string): unknown => {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const nonBlank = (value: string | null | undefined): string | undefined => (value != null && value.trim() !== "" ? value : undefined);
/** Arguments that already parse as one JSON value (a call that is complete). */
const isWholeJson = (text: string): boolean => {
  if (text.trim() === "") return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const startsStructured = (value: string | null | undefined): boolean => {
  const first = value?.trimStart()[0];
  return first === "{" || first === "[";
};

const usageOf = (usage: ChunkUsage | undefined): Usage =>
  usage === undefined ? {} : { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 };

/** One stream's reader (see the module comment). */
export const chatStreamReader = () => {
  let started = false;
  let usage: ChunkUsage | undefined;
  const calls: Call[] = [];
  const byIndex = new Map<number, Call>();
  const usedIds = new Set<string>();

  const newCall = (delta: ToolCallDelta, wireId: string | undefined, name: string): void => {
    let id = wireId;
    if (id === undefined || usedIds.has(id)) {
      id = generatedId();
      while (usedIds.has(id)) id = generatedId();
    }
    usedIds.add(id);
    const call: Call = { id, wireId, index: delta.index, sequence: calls.length, name, args: delta.function.arguments ?? "" };
    calls.push(call);
    byIndex.set(delta.index, call);
  };

  /** A piece of a tool call: a new call, or more arguments of the one at its index. */
  const toolCall = (delta: ToolCallDelta): StreamStop | undefined => {
    const rawName = delta.function.name;
    const name = nonBlank(rawName);
    const wireId = nonBlank(delta.id);
    const current = byIndex.get(delta.index);
    // Another call at the same index (servers that number every call 0), as the AI SDK's tracker tells
    // them apart: with a new id, a name of its own or fresh arguments; without an id, another name, or
    // fresh arguments after a call whose arguments are already whole.
    const args = delta.function.arguments;
    const another =
      current !== undefined &&
      name !== undefined &&
      (wireId !== undefined && wireId !== current.wireId
        ? name !== current.name || startsStructured(args)
        : wireId === undefined && (name !== current.name || (startsStructured(args) && isWholeJson(current.args))));
    if (current !== undefined && !another) {
      if (delta.function.arguments != null) current.args += delta.function.arguments;
      return undefined;
    }
    if (typeof rawName === "string" && name === undefined) return undefined;
    if (name === undefined) return { kind: "failed", error: invalidAnswer("AI_InvalidResponseDataError", "Expected 'function.name' to be a string.") };
    newCall(delta, wireId, name);
    return undefined;
  };

  /** Reads one payload, adding its events to `out`; what ends the stream, if it does. */
  const take = (data: string, out: ModelEvent[]): StreamStop | undefined => {
    if (data === "[DONE]") return undefined;
    const parsed = parseJson(data);
    if ("error" in parsed) return { kind: "failed", error: parsed.error };
    const reasoning = rawReasoning(parsed.value);
    if (reasoning !== undefined) out.push({ type: "reasoning", text: reasoning });
    const chunk = chatChunkOf(parsed.value);
    if (chunk.kind === "invalid") return { kind: "failed", error: chunk.error };
    if (chunk.kind === "error") return started ? { kind: "failed", error: chunk.error } : { kind: "early-error", frame: chunk.error };
    if (chunk.output) started = true;
    if (chunk.usage !== undefined) usage = chunk.usage;
    if (chunk.content !== undefined && chunk.content !== "") out.push({ type: "text", text: chunk.content });
    if (chunk.refusal !== undefined && chunk.refusal !== "") out.push({ type: "text", text: chunk.refusal });
    if (chunk.toolCalls !== undefined) {
      for (const delta of chunk.toolCalls) {
        const stop = toolCall(delta);
        if (stop !== undefined) return stop;
      }
    }
    return undefined;
  };

  /** The stream ended: its tool calls, in index order, and the finish. */
  const end = (out: ModelEvent[]): void => {
    const ordered = [...calls].sort((a, b) => a.index - b.index || a.sequence - b.sequence);
    for (const call of ordered) out.push({ type: "tool-call", id: call.id, name: call.name, input: parseInput(call.args) });
    out.push({ type: "finish", usage: usageOf(usage) });
  };

  return {
    take,
    end,
    /** Whether output (text, a refusal, a tool call) has arrived: from then on, nothing is retried. */
    get started(): boolean {
      return started;
    },
  };
};
