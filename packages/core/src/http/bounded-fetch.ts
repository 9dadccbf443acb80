/**
 * Bounds on what mm reads from a server over HTTP (a model server, an MCP server): each answer's body
 * is counted as it streams, and reading it fails with {@link AnswerTooLarge} the moment a bound is
 * passed, before more is buffered; the body is then cancelled, which closes the connection.
 * - an event stream (a 2xx `text/event-stream` answer): the bytes of one event, counted from the end
 *   of the last one (a blank line), line ends not counted. A line that never ends, or `data:` lines
 *   that never make an event, stop at {@link MAX_EVENT_BYTES}: whatever parses the stream buffers no
 *   more, and a stream of short events may go on as long as the server sends them.
 * - any other answer (JSON, an error status, whatever its type, which is read whole), and every answer
 *   when the caller reads them whole (`whole`, as `GET /models` is): its whole size, {@link MAX_ANSWER_BYTES}.
 * Only web-standard streams: no Node API.
 */
import { sizeText } from "../tools/size-text.js";

/** The most one event of an event stream may hold (a line that never ends stops here): 8 MiB. */
export const MAX_EVENT_BYTES = 8 * 1024 * 1024;
/** The most a whole answer other than an event stream may hold: 16 MiB. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** A body past its bound. Its message has no subject: `sent …`, for "the model server" or "the server" to lead. */
export class AnswerTooLarge extends Error {
  override readonly name = "MM_AnswerTooLarge";
  constructor(
    /** `event`: one event of an event stream; `answer`: a whole answer. */
    readonly what: "event" | "answer",
    readonly limit: number,
  ) {
    super(
      what === "event"
        ? `sent over ${sizeText(limit)} of an event stream without ending an event (a line that never ends?)`
        : `sent an answer of over ${sizeText(limit)}`,
    );
  }
}

/** The {@link AnswerTooLarge} in `error`, its causes, or a retry's last error (recognised by name, across copies of this module). */
export const answerTooLargeIn = (error: unknown): AnswerTooLarge | undefined => {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); ) {
    seen.add(current);
    if (current.name === "MM_AnswerTooLarge") return current as AnswerTooLarge;
    const last = (current as { lastError?: unknown }).lastError;
    current = last instanceof Error && !seen.has(last) ? last : current.cause;
  }
  return undefined;
};

export type BoundOptions = {
  /** {@link MAX_EVENT_BYTES} when absent. */
  readonly eventBytes?: number;
  /** {@link MAX_ANSWER_BYTES} when absent. */
  readonly answerBytes?: number;
  /** Every answer is read whole (a list, not a stream): its total bounded whatever its type. */
  readonly whole?: boolean;
  /** Told once per body that passes its bound (to stop the server it came from). */
  readonly onExceeded?: (error: AnswerTooLarge) => void;
};

const LF = 10;
const CR = 13;

/** Counts the bytes of the current event across chunks; false once past `limit`. */
export const eventCounter = (limit: number): ((chunk: Uint8Array) => boolean) => {
  let inEvent = 0;
  let inLine = 0;
  let afterCR = false;
  return (chunk) => {
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (byte === LF || byte === CR) {
        if (byte === LF && afterCR) {
          afterCR = false;
          continue;
        }
        afterCR = byte === CR;
        // A line end after an empty line: the event ended.
        if (inLine === 0) inEvent = 0;
        inLine = 0;
      } else {
        afterCR = false;
        inLine++;
        if (++inEvent > limit) return false;
      }
    }
    return true;
  };
};

/** Counts a whole body's bytes; false once past `limit`. */
const totalCounter = (limit: number): ((chunk: Uint8Array) => boolean) => {
  let total = 0;
  return (chunk) => (total += chunk.length) <= limit;
};

/** `body`, failing with {@link AnswerTooLarge} past its bound (`events`: counted per event). */
export const boundedBody = (body: ReadableStream<Uint8Array>, events: boolean, options: BoundOptions = {}): ReadableStream<Uint8Array> => {
  const limit = events ? (options.eventBytes ?? MAX_EVENT_BYTES) : (options.answerBytes ?? MAX_ANSWER_BYTES);
  const within = events ? eventCounter(limit) : totalCounter(limit);
  let exceeded = false;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (exceeded) return;
        if (within(chunk)) return controller.enqueue(chunk);
        exceeded = true;
        const error = new AnswerTooLarge(events ? "event" : "answer", limit);
        // Errors what reads the body and cancels the server's side of it: the connection closes.
        controller.error(error);
        options.onExceeded?.(error);
      },
    }),
  );
};

/** Statuses whose answers have no body (a Response cannot be made with one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/** `inner`, each answer's body bounded (see the module comment). */
export const boundedFetch =
  (inner: typeof fetch, options: BoundOptions = {}): typeof fetch =>
  async (input, init) => {
    const response = await inner(input, init);
    if (response.body === null || NO_BODY.has(response.status) || response.status < 200 || response.status > 599) return response;
    const events = options.whole !== true && response.ok && (response.headers.get("content-type") ?? "").toLowerCase().includes("text/event-stream");
    const bounded = new Response(boundedBody(response.body, events, options), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // A new Response has no URL of its own: the one the answer came from, for whoever reads it.
    Object.defineProperty(bounded, "url", { value: response.url });
    Object.defineProperty(bounded, "redirected", { value: response.redirected });
    return bounded;
  };
