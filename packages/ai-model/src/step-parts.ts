/**
 * The AI SDK's stream parts of one model step as mm's model events, and how the step ended. Pure: a
 * state fed one part at a time, telling what to yield and whether the step must stop.
 *
 * - Text, reasoning (the provider's reasoning parts, the `<think>` middleware's, and the Responses
 *   API's raw `response.reasoning_text.delta` events, which @ai-sdk/openai 3.0.139 does not read) and
 *   tool calls become events; the calls are handed over with the finish (the core runs none before
 *   it, and a retried attempt must not repeat them). Calls the provider ran itself (web search, code
 *   interpreter) are not mm's: they are neither yielded nor answered.
 * - A step is finished only when the server said so on the wire (a `finish_reason`, a
 *   `response.completed` / `response.incomplete` / `response.failed` event), seen in the raw chunks:
 *   a stream cut off before that is a failure, never a complete answer whose tool calls run. (A chat
 *   stream the server ended with `[DONE]`, or closed after a whole chunk, without a finish reason
 *   gets one before the provider reads it: chat-stream-repairs.ts.)
 * - An error the server sends after saying the answer was cut off (a `length` or `content_filter`
 *   finish, a `response.incomplete`; OpenRouter does so when a routed model hits its output limit)
 *   does not fail the step: it ends as the finish said, and the error is kept for the log.
 * - Output is capped: text, reasoning and tool input together past `maxOutputChars` stop the step.
 */
import { InvalidResponseDataError, type LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { FinishReason, ModelEvent, Usage } from "@mm/core";
import { MAX_STEP_OUTPUT_CHARS } from "./output-cap.js";
import { parseToolInput } from "./tool-input.js";

/** Why an attempt failed, for the retry decision and the message. */
export type StepFailure =
  /** The stream ended before the server said it finished (a dropped connection, a crashed server). */
  | { readonly kind: "unfinished" }
  /** The output passed the cap. */
  | { readonly kind: "too-much-output"; readonly limit: number }
  /** The provider reported an error (a server's error event, a chunk it could not read). */
  | { readonly kind: "provider"; readonly error: unknown };

/** What feeding one part gives: events to yield, and a failure when the step must stop now. */
export type PartOutcome = { readonly events: readonly ModelEvent[]; readonly failure?: StepFailure };

type ProviderUsage = Extract<LanguageModelV3StreamPart, { type: "finish" }>["usage"];
type OpenAIMetadata = { readonly itemId?: unknown; readonly reasoningEncryptedContent?: unknown };

const NOTHING: PartOutcome = { events: [] };

const openaiOf = (part: { providerMetadata?: unknown }): OpenAIMetadata => (part.providerMetadata as { openai?: OpenAIMetadata } | undefined)?.openai ?? {};

/** The Responses API's reasoning item a part belongs to; none for chat servers and the `<think>` middleware. */
const itemOf = (part: { providerMetadata?: unknown }): string | undefined => {
  const item = openaiOf(part).itemId;
  return typeof item === "string" ? item : undefined;
};

/** What the server said the step cost (OpenRouter's `usage.cost`, in US dollars), read from its raw usage. */
const reportedCost = (usage: ProviderUsage | undefined): number | undefined => {
  const cost = usage?.raw?.cost;
  return typeof cost === "number" && Number.isFinite(cost) && cost >= 0 ? cost : undefined;
};

const usageOf = (usage: ProviderUsage | undefined): Usage => {
  const input = usage?.inputTokens.total;
  const output = usage?.outputTokens.total;
  const cached = usage?.inputTokens.cacheRead;
  const cost = reportedCost(usage);
  return {
    ...(input !== undefined ? { inputTokens: input } : {}),
    ...(output !== undefined ? { outputTokens: output } : {}),
    ...(cached !== undefined && cached > 0 ? { cachedInputTokens: cached } : {}),
    ...(cost !== undefined ? { cost } : {}),
  };
};

const REASONS: Readonly<Record<string, FinishReason>> = {
  stop: "stop",
  length: "length",
  "content-filter": "content-filter",
  "tool-calls": "tool-calls",
};

type Raw = {
  readonly type?: unknown;
  readonly delta?: unknown;
  readonly item_id?: unknown;
  readonly response?: { readonly incomplete_details?: { readonly reason?: unknown } | null };
  readonly choices?: readonly { readonly finish_reason?: unknown }[];
};

/** The cut-off a raw chunk announces (a `length` / `content_filter` finish, a `response.incomplete`), if any. */
const cutOffBy = (raw: Raw | undefined): FinishReason | undefined => {
  if (raw === undefined || raw === null) return undefined;
  if (raw.type === "response.incomplete") return raw.response?.incomplete_details?.reason === "content_filter" ? "content-filter" : "length";
  const reason = Array.isArray(raw.choices) ? raw.choices.find((c) => c?.finish_reason != null)?.finish_reason : undefined;
  return reason === "length" ? "length" : reason === "content_filter" ? "content-filter" : undefined;
};

const RESPONSE_ENDS = new Set(["response.completed", "response.incomplete", "response.failed"]);

/** Whether a raw chunk is the server saying the answer is over. */
const saysFinished = (raw: Raw | undefined): boolean =>
  raw !== undefined &&
  raw !== null &&
  ((typeof raw.type === "string" && RESPONSE_ENDS.has(raw.type)) || (Array.isArray(raw.choices) && raw.choices.some((c) => c?.finish_reason != null)));

/** The state of one attempt at a step. */
export const stepParts = (maxOutputChars: number = MAX_STEP_OUTPUT_CHARS) => {
  let finishedOnWire = false;
  let finish: Extract<ModelEvent, { type: "finish" }> | undefined;
  let emitted = false;
  let chars = 0;
  let reasoned = false;
  let texted = false;
  /** Tool calls whose input streamed in deltas (counted then, not again when whole). */
  const streamedInputs = new Set<string>();
  /** Tool calls, handed over with the finish: the core runs none before it, and a retried attempt must not repeat them. */
  const calls: ModelEvent[] = [];
  /** The provider's complaint that the stream ended without a finish reason: judged at the end. */
  let deferredError: unknown;
  /** How the server said the answer was cut off, once it did. */
  let cutOff: FinishReason | undefined;
  /** Errors the server sent after that: for the log, not the step's end. */
  const ignored: unknown[] = [];

  const grow = (n: number): StepFailure | undefined => {
    chars += n;
    return chars > maxOutputChars ? { kind: "too-much-output", limit: maxOutputChars } : undefined;
  };
  const emit = (events: ModelEvent[], failure?: StepFailure): PartOutcome => {
    if (events.length > 0) emitted = true;
    return failure === undefined ? { events } : { events, failure };
  };
  const reasoning = (text: string, item: string | undefined): PartOutcome => {
    if (text === "") return NOTHING;
    reasoned = true;
    return emit([item !== undefined ? { type: "reasoning", text, item } : { type: "reasoning", text }], grow(text.length));
  };

  const take = (part: LanguageModelV3StreamPart): PartOutcome => {
    switch (part.type) {
      case "text-delta": {
        // The answer after a reasoning block usually opens with blank lines: not shown.
        const text = !texted && reasoned ? part.delta.replace(/^\s+/, "") : part.delta;
        if (text === "") return NOTHING;
        texted = true;
        return emit([{ type: "text", text }], grow(text.length));
      }
      case "reasoning-delta":
        return reasoning(part.delta, itemOf(part));
      case "reasoning-end": {
        const item = itemOf(part);
        if (item === undefined) return NOTHING;
        const encrypted = openaiOf(part).reasoningEncryptedContent;
        return emit([{ type: "reasoning-end", item, ...(typeof encrypted === "string" ? { encrypted } : {}) }]);
      }
      case "tool-input-delta":
        streamedInputs.add(part.id);
        return emit([], grow(part.delta.length));
      case "tool-call": {
        if (part.providerExecuted === true) return NOTHING;
        const failure = streamedInputs.has(part.toolCallId) ? undefined : grow(part.input.length);
        calls.push({ type: "tool-call", id: part.toolCallId, name: part.toolName, input: parseToolInput(part.input) });
        return failure === undefined ? NOTHING : { events: [], failure };
      }
      case "finish": {
        const reason = REASONS[part.finishReason.unified] ?? "other";
        finish = { type: "finish", usage: usageOf(part.usage), reason };
        return NOTHING;
      }
      case "raw": {
        const raw = part.rawValue as Raw | undefined;
        if (saysFinished(raw)) finishedOnWire = true;
        cutOff ??= cutOffBy(raw);
        // Raw reasoning of the Responses API (LM Studio, DeepSeek, gpt-oss servers): the provider drops it.
        if (raw?.type === "response.reasoning_text.delta" && typeof raw.delta === "string") return reasoning(raw.delta, undefined);
        return NOTHING;
      }
      case "error": {
        const error = part.error;
        if (cutOff !== undefined) {
          ignored.push(error);
          return NOTHING;
        }
        // @ai-sdk/openai-compatible 2.0.92 reports a stream without a finish reason as an error part at its
        // end; judged at the end with the other unfinished streams (retried when nothing was shown).
        if (!finishedOnWire && InvalidResponseDataError.isInstance(error)) {
          deferredError = error;
          return NOTHING;
        }
        return emit([], { kind: "provider", error });
      }
      default:
        return NOTHING;
    }
  };

  /** How the attempt ended once its stream is done: its tool calls and the finish event, or a failure. */
  const end = (): { readonly finish: readonly ModelEvent[] } | { readonly failure: StepFailure } => {
    // After an ignored error the provider may report the finish as an error ("other"): the wire said how it ended.
    if (finish !== undefined && finishedOnWire)
      return { finish: [...calls, ignored.length > 0 && cutOff !== undefined ? { ...finish, reason: cutOff } : finish] };
    if (deferredError !== undefined && finishedOnWire) return { failure: { kind: "provider", error: deferredError } };
    return { failure: { kind: "unfinished" } };
  };

  return {
    take,
    end,
    /** Errors the server sent after it said the answer was cut off, for the log. */
    get ignored(): readonly unknown[] {
      return ignored;
    },
    /** How the server said the answer was cut off (`length`, `content-filter`), if it did. */
    get cutOff(): FinishReason | undefined {
      return cutOff;
    },
    /** Whether anything was shown (text, reasoning): from then on the step is not retried. */
    get emitted(): boolean {
      return emitted;
    },
  };
};
