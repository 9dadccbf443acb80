/**
 * The `messages` of a chat-completions request as UTF-8 bytes, kept from one step to the next. Every
 * step re-sends the whole history, and its messages do not change: the bytes of a history are kept in
 * one buffer (per history, keyed by its first message), and a step writes only the messages added since
 * the previous one (and any whose tool results changed), where converting, serialising and encoding
 * the whole history cost about 100 ms per step on a 10 MB session. The JSON is what the AI SDK's chat
 * model writes for the prompt `toProviderPrompt` makes (checked by the tests against the provider's own
 * output): user text (and images), assistant text and tool calls, each call's result right after it,
 * images of results in a user message after them.
 */
import { NO_RESULT, type AssistantMessage, type ImageData, type Message, type ToolResultMessage, type UserMessage } from "@mm/core";
import { hasForbiddenKey } from "./forbidden-keys.js";
import { SUMMARY_HEADING } from "./to-provider-prompt.js";

/** A message that becomes chat messages of its own (tool results go with their call). */
type Unit = UserMessage | AssistantMessage;
/** The results an assistant message's calls had when it was written (none for a user message). */
type Results = readonly (ToolResultMessage | undefined)[];

const NO_RESULTS: Results = [];
const MIN_CAPACITY = 64 * 1024;
const COMMA = 0x2c;

const imagePart = (image: ImageData) => ({
  type: "image_url",
  image_url: { url: `data:${image.mimeType === "image/*" ? "image/jpeg" : image.mimeType};base64,${image.data}` },
});

const userJson = (message: UserMessage): string => {
  const text = message.summary ? `${SUMMARY_HEADING}\n${message.text}` : message.text;
  const images = message.images ?? [];
  return JSON.stringify({ role: "user", content: images.length === 0 ? text : [{ type: "text", text }, ...images.map(imagePart)] });
};

/** A call's arguments as the provider sends them: a JSON object's text, `{}` for anything else. */
const argumentsOf = (input: unknown): string => {
  if (typeof input === "string") {
    try {
      const parsed: unknown = JSON.parse(input);
      return typeof parsed !== "object" || parsed === null || Array.isArray(parsed) || hasForbiddenKey(parsed) ? "{}" : input;
    } catch {
      return "{}";
    }
  }
  return JSON.stringify(typeof input === "object" && input !== null && !Array.isArray(input) ? input : {});
};

const assistantJson = (message: AssistantMessage, results: Results): string => {
  const calls = message.toolCalls;
  if (calls.length === 0) {
    // Text, or reasoning alone (the chat API takes no reasoning: an empty text then); nothing at all: no message.
    return message.text === "" && (message.reasoning ?? []).length === 0 ? "" : JSON.stringify({ role: "assistant", content: message.text });
  }
  const parts = [
    JSON.stringify({
      role: "assistant",
      content: message.text === "" ? null : message.text,
      tool_calls: calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: argumentsOf(call.input) } })),
    }),
    ...calls.map((call, i) => JSON.stringify({ role: "tool", tool_call_id: call.id, content: results[i]?.output ?? NO_RESULT })),
  ];
  const shown = calls.flatMap((call, i) => (results[i]?.images ?? []).map((image) => ({ call, image })));
  if (shown.length > 0) {
    const ids = [...new Set(shown.map((s) => s.call.id))].join(", ");
    parts.push(JSON.stringify({ role: "user", content: [{ type: "text", text: `[the images returned by ${ids}]` }, ...shown.map((s) => imagePart(s.image))] }));
  }
  return parts.join(",");
};

/** The chat messages one message becomes, as JSON without the surrounding brackets ("" for none). */
export const chatMessagesJson = (unit: Unit, results: Results): string => (unit.role === "user" ? userJson(unit) : assistantJson(unit, results));

/** The system prompt of a step: the request's and any system messages of the history, as toProviderPrompt joins them. */
export const systemTextOf = (system: string, messages: readonly Message[]): string => {
  const systems = [system];
  for (const message of messages) if (message.role === "system") systems.push(message.text);
  return systems.filter((s) => s !== "").join("\n\n");
};

/** About how many UTF-16 units of JSON a message becomes (its texts, images and results, and some room for the rest). */
const sizeHint = (unit: Unit, found: ReadonlyMap<string, ToolResultMessage>): number => {
  const images = (list: readonly ImageData[] | undefined): number => (list ?? []).reduce((sum, image) => sum + image.data.length + 64, 0);
  if (unit.role === "user") return unit.text.length + images(unit.images) + 64;
  let size = unit.text.length + 64;
  for (const call of unit.toolCalls) {
    const result = found.get(call.id);
    size += 256 + (result === undefined ? NO_RESULT.length : result.output.length + images(result.images));
  }
  return size;
};

const sameResult = (a: ToolResultMessage | undefined, b: ToolResultMessage | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.output === b.output && a.images === b.images);

const sameResults = (a: Results, b: Results): boolean => a.length === b.length && a.every((r, i) => sameResult(r, b[i]));

/** The bytes of one step's messages, valid until `release` (the buffer is reused by the next step). */
export type HistoryBytes = { readonly bytes: Uint8Array; readonly release: () => void };

type Kept = { buffer: Buffer; used: number; units: Unit[]; results: Results[]; ends: number[]; busy: boolean };

/** Keeps the bytes of each history it is given (see the module comment). */
export const chatHistoryBytes = () => {
  const kept = new WeakMap<Unit, Kept>();

  /**
   * Room for `units16` more UTF-16 units of JSON: up to 3 bytes each. Pages a buffer never writes cost
   * no memory, so the room for a whole history is made at once rather than grown step by step (each
   * growth copies, and fresh pages are slow to touch: about 20 µs a page on the 2-core benchmark VM).
   */
  const makeRoom = (state: Kept, units16: number): void => {
    const needed = state.used + units16 * 3;
    if (needed <= state.buffer.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(needed, Math.ceil(state.buffer.length * 1.5), MIN_CAPACITY));
    state.buffer.copy(grown, 0, 0, state.used);
    state.buffer = grown;
  };

  /** The messages of `messages` as the JSON array's content (without its brackets). */
  const encode = (messages: readonly Message[]): HistoryBytes => {
    const found = new Map<string, ToolResultMessage>();
    const units: Unit[] = [];
    for (const message of messages) {
      if (message.role === "tool") found.set(message.callId, message);
      else if (message.role !== "system") units.push(message);
    }
    const resultsOf = (unit: Unit): Results => (unit.role === "assistant" && unit.toolCalls.length > 0 ? unit.toolCalls.map((call) => found.get(call.id)) : NO_RESULTS);
    const first = units[0];
    let state = first !== undefined ? kept.get(first) : undefined;
    if (first === undefined || state?.busy === true) {
      // Nothing to keep, or the kept buffer is still being sent (the same history in two requests at once).
      const text = units.map((unit) => chatMessagesJson(unit, resultsOf(unit))).filter((json) => json !== "").join(",");
      return { bytes: Buffer.from(text, "utf8"), release: () => undefined };
    }
    if (state === undefined) {
      state = { buffer: Buffer.allocUnsafeSlow(MIN_CAPACITY), used: 0, units: [], results: [], ends: [], busy: false };
      kept.set(first, state);
    }
    let same = 0;
    const limit = Math.min(state.units.length, units.length);
    while (same < limit && state.units[same] === units[same] && sameResults(state.results[same]!, resultsOf(units[same]!))) same++;
    state.used = same === 0 ? 0 : state.ends[same - 1]!;
    state.units.length = state.results.length = state.ends.length = same;
    let hint = 0;
    for (let i = same; i < units.length; i++) hint += sizeHint(units[i]!, found);
    makeRoom(state, hint);
    // Each message's JSON written as soon as it is made: the strings die young, in memory the heap reuses.
    for (let i = same; i < units.length; i++) {
      const unit = units[i]!;
      const results = resultsOf(unit);
      const json = chatMessagesJson(unit, results);
      if (json !== "") {
        makeRoom(state, json.length + 1);
        if (state.used > 0) state.buffer[state.used++] = COMMA;
        state.used += state.buffer.write(json, state.used, "utf8");
      }
      state.units.push(unit);
      state.results.push(results);
      state.ends.push(state.used);
    }
    state.busy = true;
    const held = state;
    return { bytes: held.buffer.subarray(0, held.used), release: () => void (held.busy = false) };
  };

  return { encode };
};
