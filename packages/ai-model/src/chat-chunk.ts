/**
 * One `data:` payload of a chat-completions stream, parsed and checked by hand: the fields mm uses
 * are checked the way the provider's schema checks them (`choices` an array; in its first choice the
 * delta's `content` and `refusal` strings, its `tool_calls` with a numeric `index`, an optional `id`
 * and `type: "function"`, and a `function` object whose `name` and `arguments` are strings; the
 * `finish_reason` a string; the `usage` token counts numbers; each may be null or absent); anything
 * else in the chunk is not looked at. A chunk that is not a chat chunk but holds `error.message` is an
 * error frame. JSON with a `__proto__` key (or a `constructor` holding a `prototype`) is refused, as
 * the AI SDK's parser does.
 */
import { invalidAnswer, type StreamErrorFrame } from "./api-call-error.js";
import { hasForbiddenKey } from "./forbidden-keys.js";

/** A piece of a streamed tool call. */
export type ToolCallDelta = {
  readonly index: number;
  readonly id?: string | null;
  readonly function: { readonly name?: string | null; readonly arguments?: string | null };
};

/** The token counts of a usage chunk. */
export type ChunkUsage = { readonly prompt_tokens?: number | null; readonly completion_tokens?: number | null };

/** What a payload is: a chat chunk (the parts mm uses), an error frame, or something mm cannot use. */
export type ChatChunk =
  | {
      readonly kind: "chunk";
      readonly content: string | undefined;
      readonly refusal: string | undefined;
      readonly toolCalls: readonly ToolCallDelta[] | undefined;
      readonly usage: ChunkUsage | undefined;
      /** Whether it carries output (text, a refusal, tool calls or annotations, in any choice). */
      readonly output: boolean;
    }
  | { readonly kind: "error"; readonly error: StreamErrorFrame }
  | { readonly kind: "invalid"; readonly error: Error };

type Json = Record<string, unknown>;

const isNullish = (value: unknown): value is null | undefined => value === undefined || value === null;
const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const stringOrNullish = (value: unknown): boolean => isNullish(value) || typeof value === "string";
const numberOrNullish = (value: unknown): boolean => isNullish(value) || typeof value === "number";

const SUSPECT_PROTO = /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;
const SUSPECT_CONSTRUCTOR = /"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:/;

/** `JSON.parse`, refusing prototype keys; undefined and the reason when the text is not (safe) JSON. */
export const parseJson = (text: string): { readonly value: unknown } | { readonly error: Error } => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    return { error: invalidAnswer("AI_JSONParseError", `JSON parsing failed: Text: ${text}.\nError message: ${(cause as Error).message}`) };
  }
  if (typeof value === "object" && value !== null && (SUSPECT_PROTO.test(text) || SUSPECT_CONSTRUCTOR.test(text)) && hasForbiddenKey(value)) {
    return { error: invalidAnswer("AI_JSONParseError", `JSON parsing failed: Text: ${text}.\nError message: Object contains forbidden prototype property`) };
  }
  return { value };
};

/** Why a tool-call delta is not one, or undefined. */
const toolCallProblem = (call: unknown, at: string): string | undefined => {
  if (!isRecord(call)) return `${at}: expected an object`;
  if (typeof call.index !== "number") return `${at}.index: expected a number`;
  if (!stringOrNullish(call.id)) return `${at}.id: expected a string`;
  if (!isNullish(call.type) && call.type !== "function") return `${at}.type: expected "function"`;
  const fn = call.function;
  if (!isRecord(fn)) return `${at}.function: expected an object`;
  if (!stringOrNullish(fn.name)) return `${at}.function.name: expected a string`;
  if (!stringOrNullish(fn.arguments)) return `${at}.function.arguments: expected a string`;
  return undefined;
};

/** Why `value` is not a chat chunk mm can use, or undefined. */
const chunkProblem = (value: Json): string | undefined => {
  const choices = value.choices;
  if (!Array.isArray(choices)) return "choices: expected an array";
  const usage = value.usage;
  if (!isNullish(usage)) {
    if (!isRecord(usage)) return "usage: expected an object";
    if (!numberOrNullish(usage.prompt_tokens)) return "usage.prompt_tokens: expected a number";
    if (!numberOrNullish(usage.completion_tokens)) return "usage.completion_tokens: expected a number";
  }
  if (choices.length === 0) return undefined;
  const choice: unknown = choices[0];
  if (!isRecord(choice)) return "choices[0]: expected an object";
  if (!stringOrNullish(choice.finish_reason)) return "choices[0].finish_reason: expected a string";
  const delta = choice.delta;
  if (isNullish(delta)) return undefined;
  if (!isRecord(delta)) return "choices[0].delta: expected an object";
  if (!stringOrNullish(delta.content)) return "choices[0].delta.content: expected a string";
  if (!stringOrNullish(delta.refusal)) return "choices[0].delta.refusal: expected a string";
  const calls = delta.tool_calls;
  if (isNullish(calls)) return undefined;
  if (!Array.isArray(calls)) return "choices[0].delta.tool_calls: expected an array";
  for (let i = 0; i < calls.length; i++) {
    const problem = toolCallProblem(calls[i], `choices[0].delta.tool_calls[${i}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
};

const nonEmpty = (value: unknown): boolean => (typeof value === "string" || Array.isArray(value)) && value.length > 0;

/** Whether any choice carries output (the provider's test for "the stream has begun"). */
const hasOutput = (choices: readonly unknown[]): boolean =>
  choices.some((choice) => {
    const delta = isRecord(choice) ? choice.delta : undefined;
    return isRecord(delta) && (nonEmpty(delta.content) || nonEmpty(delta.refusal) || nonEmpty(delta.tool_calls) || nonEmpty(delta.annotations));
  });

/** An error frame's error, with the keys it has (the provider's error schema). */
const errorFrameOf = (value: Json): StreamErrorFrame | undefined => {
  const error = value.error;
  if (!isRecord(error) || typeof error.message !== "string") return undefined;
  if (!stringOrNullish(error.type)) return undefined;
  if (!isNullish(error.code) && typeof error.code !== "string" && typeof error.code !== "number") return undefined;
  return {
    message: error.message,
    ...("type" in error ? { type: error.type } : {}),
    ...("param" in error ? { param: error.param } : {}),
    ...("code" in error ? { code: error.code } : {}),
  };
};

/** What the parsed payload `value` is (see the module comment). */
export const chatChunkOf = (value: unknown): ChatChunk => {
  const problem = isRecord(value) ? chunkProblem(value) : "expected an object";
  if (problem === undefined) {
    const chunk = value as Json;
    const choices = chunk.choices as readonly Json[];
    const delta = choices.length > 0 ? (choices[0]!.delta as Json | null | undefined) : undefined;
    return {
      kind: "chunk",
      content: (delta?.content as string | null | undefined) ?? undefined,
      refusal: (delta?.refusal as string | null | undefined) ?? undefined,
      toolCalls: (delta?.tool_calls as readonly ToolCallDelta[] | null | undefined) ?? undefined,
      usage: (chunk.usage as ChunkUsage | null | undefined) ?? undefined,
      output: hasOutput(choices),
    };
  }
  const frame = isRecord(value) ? errorFrameOf(value) : undefined;
  if (frame !== undefined) return { kind: "error", error: frame };
  return { kind: "invalid", error: invalidAnswer("AI_TypeValidationError", `Type validation failed: Value: ${JSON.stringify(value)}.\nError message: ${problem}`) };
};
