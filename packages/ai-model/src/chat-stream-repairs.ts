/**
 * The one place where chat-completions streams are mended before the AI SDK reads them: what
 * @ai-sdk/openai-compatible 2.0.92 and @ai-sdk/moonshotai 2.0.61 misread, rewritten on the wire (the
 * body of each event-stream answer), as stable-reasoning-ids.ts does for the Responses API.
 *
 * - A stream the server ended cleanly (`data: [DONE]`, or the body's end right after a whole event
 *   once some text or call came) without ever sending a `finish_reason` (Snowflake Cortex; OpenRouter
 *   routing Kimi K2 to Novita) gets one: `tool_calls` when calls came, `stop` otherwise. The compatible provider reports such a
 *   stream as an error since vercel/ai#19165 ("truncated SSE finishes as other with no
 *   finish_reason"): right for a cut stream, wrong for a finished one. A body cut mid-event, a
 *   dropped connection, an error chunk, or a body without any chunk get none: they stay failures.
 * - Tool-call deltas without `index` (Kimi on Moonshot: both calls opened in one delta, each with its
 *   own `id`, their arguments after them by position) get one: the call of their `id`, else the one at
 *   their position among the calls opened last. The compatible provider drops pieces it cannot place
 *   (its `StreamingToolCallTracker`; vercel/ai#5885, #15879), Moonshot's merges calls streamed one after
 *   the other into the first (it takes the position in the delta as the index).
 * - Usage inside the choice (Moonshot's `choices[0].usage`) is copied to the chunk's `usage`, where
 *   the compatible provider reads it.
 *
 * Events the repairs leave alone pass as they came (their data, reframed).
 */
type Json = Record<string, unknown>;
type ToolCallDelta = { index?: unknown; id?: unknown; function?: { name?: unknown; arguments?: unknown } };

const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const nonBlank = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value : undefined);

/** What one stream has shown so far, and the calls whose deltas came without `index`. */
export type ChatStreamState = {
  finished: boolean;
  sawChoices: boolean;
  /** Text, reasoning or a tool call came. */
  sawContent: boolean;
  sawCalls: boolean;
  sawError: boolean;
  /** The calls opened by deltas without index: their ids and names, in order. */
  readonly calls: { id?: string; name?: string }[];
  /** The first call opened by the last delta that opened calls (where positional pieces start). */
  groupStart: number;
};

export const chatStreamState = (): ChatStreamState => ({
  finished: false,
  sawChoices: false,
  sawContent: false,
  sawCalls: false,
  sawError: false,
  calls: [],
  groupStart: 0,
});

/** The index of a tool-call delta without one, at `position` in its delta (`openedHere`: how many calls that delta opened so far). */
const indexOf = (call: ToolCallDelta, position: number, state: ChatStreamState, openedHere: { count: number }): number => {
  const id = nonBlank(call.id);
  const name = nonBlank(call.function?.name);
  const known = id === undefined ? -1 : state.calls.findIndex((c) => c.id === id);
  if (known >= 0) return known;
  const target = state.calls.length === 0 ? undefined : Math.min(state.groupStart + position, state.calls.length - 1);
  const args = typeof call.function?.arguments === "string" ? call.function.arguments.trimStart() : "";
  // A piece of a call already open: no name, or its name repeated on a piece that does not start a new value.
  const open = target === undefined ? undefined : state.calls[target];
  if (target !== undefined && open !== undefined && (name === undefined || (id === undefined && open.name === name && !args.startsWith("{")))) {
    if (id !== undefined) open.id ??= id;
    return target;
  }
  const index = state.calls.length;
  state.calls.push({ ...(id !== undefined ? { id } : {}), ...(name !== undefined ? { name } : {}) });
  if (openedHere.count === 0) state.groupStart = index;
  openedHere.count++;
  return index;
};

/** A chunk's data mended (the same string when nothing needed it), the state updated. Not JSON: as it came. */
export const repairedChunk = (data: string, state: ChatStreamState): string => {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return data;
  }
  if (!isRecord(value)) return data;
  if (value.error !== undefined && value.error !== null) state.sawError = true;
  const choices = value.choices;
  if (!Array.isArray(choices)) return data;
  state.sawChoices = true;
  let changed = false;
  let usage = value.usage;
  const mended = choices.map((choice: unknown) => {
    if (!isRecord(choice)) return choice;
    if (choice.finish_reason !== undefined && choice.finish_reason !== null) state.finished = true;
    if ((usage === undefined || usage === null) && isRecord(choice.usage)) {
      usage = choice.usage;
      changed = true;
    }
    const delta = choice.delta;
    if (!isRecord(delta)) return choice;
    if ([delta.content, delta.reasoning_content, delta.reasoning].some((part) => (typeof part === "string" || Array.isArray(part)) && part.length > 0)) {
      state.sawContent = true;
    }
    if (!Array.isArray(delta.tool_calls) || delta.tool_calls.length === 0) return choice;
    state.sawCalls = true;
    state.sawContent = true;
    if (delta.tool_calls.every((call: unknown) => isRecord(call) && typeof call.index === "number")) return choice;
    const openedHere = { count: 0 };
    const calls = delta.tool_calls.map((call: unknown, position: number) =>
      !isRecord(call) || typeof call.index === "number" ? call : { ...call, index: indexOf(call as ToolCallDelta, position, state, openedHere) },
    );
    changed = true;
    return { ...choice, delta: { ...delta, tool_calls: calls } };
  });
  return changed ? JSON.stringify({ ...value, choices: mended, ...(usage !== undefined ? { usage } : {}) }) : data;
};

/**
 * The chunk that finishes a stream its server ended without a finish reason, or none when it must stay
 * unfinished: `done`, the server sent `[DONE]` (any answer, even an empty one, is then whole); else
 * the body just ended, which finishes an answer only once something of it came.
 */
export const closingChunk = (state: ChatStreamState, done: boolean): string | undefined =>
  state.finished || !state.sawChoices || state.sawError || (!done && !state.sawContent)
    ? undefined
    : JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: state.sawCalls ? "tool_calls" : "stop" }] });

/** The SSE text of an event's data. */
const frame = (data: string): string =>
  `${data
    .split("\n")
    .map((line) => `data: ${line}`)
    .join("\n")}\n\n`;

/** A blank line: two line ends in a row (CRLF, LF or CR each; a CR before LF is never one alone), the end of an SSE event. */
const EVENT_END = /(?:\r\n|\r(?!\n)|\n)(?:\r\n|\r(?!\n)|\n)/g;
const LINE_END = /\r\n|\r|\n/;

/** The data of one event's text (its `data:` lines joined; comments, names and ids dropped), or none. */
const dataOf = (block: string): string | undefined => {
  let data: string | undefined;
  for (const line of block.split(LINE_END)) {
    if (!line.startsWith("data")) continue;
    const colon = line.indexOf(":");
    if (colon !== 4 && line !== "data") continue;
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data;
};

/**
 * The events of a text stream, in one pass and one write per read: `onData` gives the text an event's
 * data becomes, `onEnd` what follows the last (told whether text after the last whole event is pending).
 */
const eventStream = (onData: (data: string) => string, onEnd: (pending: boolean) => string) => {
  let buffer = "";
  // Reads since the last event's end that ended none, kept apart: a line that never ends (up to the
  // answer's bound) is then joined once, not copied whole at each read (a regular expression on a
  // string grown by `+=` flattens it every time: quadratic, hundreds of MiB for 8 MiB).
  let parts: string[] = [];
  let tail = "";
  return new TransformStream<string, string>({
    transform: (text, controller) => {
      // Only the end of what was already looked at can start a blank line with the new text.
      const seam = tail + text;
      EVENT_END.lastIndex = 0;
      if (!EVENT_END.test(seam)) {
        parts.push(text);
        tail = seam.slice(-3);
        return;
      }
      if (parts.length > 0) {
        buffer += parts.join("");
        parts = [];
      }
      let from = Math.max(0, buffer.length - 3);
      buffer += text;
      tail = "";
      let out = "";
      for (;;) {
        EVENT_END.lastIndex = from;
        const match = EVENT_END.exec(buffer);
        if (match === null) break;
        const data = dataOf(buffer.slice(0, match.index));
        if (data !== undefined) out += onData(data);
        buffer = buffer.slice(match.index + match[0].length);
        from = 0;
      }
      tail = buffer.slice(-3);
      if (out !== "") controller.enqueue(out);
    },
    flush: (controller) => {
      if (parts.length > 0) buffer += parts.join("");
      const last = onEnd(/\S/.test(buffer));
      if (last !== "") controller.enqueue(last);
    },
  });
};

/** `inner` whose chat-completions event streams are mended as the module comment says. */
export const withChatStreamRepairs =
  (inner: typeof fetch, debug?: (line: string) => void): typeof fetch =>
  async (input, init) => {
    const response = await inner(input, init);
    if (!response.ok || response.body === null || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) return response;
    const state = chatStreamState();
    let done = false;
    const close = (why: string): string => {
      const closing = closingChunk(state, done);
      if (closing === undefined) return "";
      debug?.(`model stream: the server ${why} without a finish reason; taken as ${state.sawCalls ? "tool_calls" : "stop"}`);
      return frame(closing);
    };
    const mend = (data: string): string => {
      if (data.trim() !== "[DONE]") return frame(repairedChunk(data, state));
      if (done) return frame(data);
      done = true;
      return close("sent [DONE]") + frame(data);
    };
    const body = response.body
      .pipeThrough(new TextDecoderStream())
      .pipeThrough(
        // The body ended without an error: finished unless cut inside an event.
        eventStream(mend, (pending) => (done || pending ? "" : close("ended the stream"))),
      )
      .pipeThrough(new TextEncoderStream());
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
