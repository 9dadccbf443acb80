/**
 * A model server's answer as mm's own HTTP client hands it over: the few members of a web `Response`
 * the chat path reads (status, two header lookups, a reader of the body, `text()` for an error's body),
 * over the `IncomingMessage` itself. Each model step built a WHATWG `Headers`, a `ReadableStream` and a
 * `Response` (undici's classes, run a few times a turn, so never optimised by V8) and read its body
 * through the web stream's reader: about 0.3–0.4 ms of every step between the answer's headers and
 * its first chunk (apps/acp-stdio/bench, round two, fifth part), for four properties. The body keeps
 * what the web stream gave: chunks in order, the reading paused while more than 256 kB wait, the
 * body timeout, the abort signal, a break-off read as undici's `terminated`. `webResponse` makes a real
 * `Response` of one for what needs it (the AI SDK's provider, through `fetch`).
 */
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";

/** What reading the body gives, as a web stream's reader does. */
export type BodyRead = { readonly done: false; readonly value: Uint8Array } | { readonly done: true; readonly value?: undefined };

/** The reader of a body: `read` in order (one read at a time: the chat path's single reader), `cancel` to let the rest go. */
export type BodyReader = {
  readonly read: () => Promise<BodyRead>;
  readonly cancel: (reason?: unknown) => Promise<void>;
};

/** The part of a web `Response` the chat path reads; a real `Response` is one too. */
export type SentResponse = {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: { readonly get: (name: string) => string | null; readonly forEach: (callback: (value: string, name: string) => void) => void };
  readonly body: { readonly getReader: () => BodyReader; readonly cancel: (reason?: unknown) => Promise<void> } | null;
  readonly text: () => Promise<string>;
};

type Coded = Error & { code: string };
/** An error shaped like undici's (its name and code). */
export const coded = (name: string, message: string, code: string): Coded => Object.assign(new Error(message), { name, code });
/** How Node's fetch ends a body that breaks off. */
const terminated = (cause: unknown): TypeError => new TypeError("terminated", { cause });
/** What an aborted request fails with: the signal's reason, or the DOM's AbortError. */
export const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new DOMException("This operation was aborted", "AbortError");

/** The response's headers, from the raw ones: names lowercase, a repeated header's values joined by ", " (as `Headers` does). */
const headersOf = (res: IncomingMessage): SentResponse["headers"] => {
  let byName: Map<string, string> | undefined;
  const all = (): Map<string, string> => {
    if (byName !== undefined) return byName;
    byName = new Map();
    const raw = res.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      const before = byName.get(name);
      byName.set(name, before === undefined ? raw[i + 1]! : `${before}, ${raw[i + 1]!}`);
    }
    return byName;
  };
  return {
    get: (name) => all().get(name.toLowerCase()) ?? null,
    forEach: (callback) => {
      for (const [name, value] of [...all()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) callback(value, name);
    },
  };
};

export type BodyOptions = {
  /** Bytes queued for a slow reader before the socket is paused. */
  readonly highWaterBytes: number;
  /** No body byte within this time ends the body with undici's `UND_ERR_BODY_TIMEOUT`. */
  readonly bodyTimeoutMs: number;
  readonly signal?: AbortSignal | null | undefined;
};

/**
 * The body of `res`, read from `source` (`res`, or its decompressor): chunks queued as they come, the
 * reading paused past `highWaterBytes`; every chunk counts as progress for the body timeout; a failure
 * (the socket closing early, the decoder, the signal) discards what is queued and fails every read after.
 */
const bodyOf = (source: Readable, res: IncomingMessage, options: BodyOptions): NonNullable<SentResponse["body"]> => {
  const queue: Uint8Array[] = [];
  let queuedBytes = 0;
  let received = 0;
  let ended = false;
  let failure: { readonly error: unknown } | undefined;
  let waiting: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const { signal } = options;
  const wake = (): void => {
    const resume = waiting;
    waiting = undefined;
    resume?.();
  };
  const stop = (): void => {
    ended = true;
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  };
  const fail = (error: unknown): void => {
    if (ended) return;
    stop();
    failure = { error };
    queue.length = 0;
    queuedBytes = 0;
    res.destroy();
    wake();
  };
  const onAbort = (): void => fail(abortReason(signal!));
  // Re-armed while chunks keep coming: at most one timer per `bodyTimeoutMs`, nothing per chunk.
  let seen = -1;
  const check = (): void => {
    if (received === seen) return fail(terminated(coded("BodyTimeoutError", "Body Timeout Error", "UND_ERR_BODY_TIMEOUT")));
    seen = received;
    timer = setTimeout(check, options.bodyTimeoutMs);
    timer.unref();
  };
  check();
  signal?.addEventListener("abort", onAbort, { once: true });
  source.on("data", (chunk: Buffer) => {
    // Chunks already read from the socket still come after a cancel or a failure: dropped.
    if (ended) return;
    received++;
    queue.push(chunk);
    queuedBytes += chunk.byteLength;
    if (queuedBytes >= options.highWaterBytes) source.pause();
    wake();
  });
  source.once("end", () => {
    if (ended) return;
    stop();
    wake();
  });
  // The socket closing early (Node: "aborted", ECONNRESET) reads as undici's SocketError.
  const closed = (cause?: unknown): void => fail(terminated(Object.assign(coded("SocketError", "other side closed", "UND_ERR_SOCKET"), cause ? { cause } : {})));
  res.once("error", closed);
  if (source !== res) source.once("error", (error) => fail(terminated(error)));
  res.once("close", () => {
    if (!res.complete) closed();
  });

  const read = async (): Promise<BodyRead> => {
    for (;;) {
      const chunk = queue.shift();
      if (chunk !== undefined) {
        queuedBytes -= chunk.byteLength;
        if (source.isPaused() && queuedBytes < options.highWaterBytes) source.resume();
        return { done: false, value: chunk };
      }
      if (failure !== undefined) throw failure.error;
      if (ended) return { done: true };
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  };
  const cancel = async (): Promise<void> => {
    if (ended && failure === undefined && queue.length === 0) return;
    stop();
    queue.length = 0;
    queuedBytes = 0;
    res.destroy();
    wake();
  };
  const reader: BodyReader = { read, cancel };
  return { getReader: () => reader, cancel };
};

/** The whole body as text (UTF-8, a leading BOM dropped, as `Response.text()` decodes). */
const textOf = async (body: SentResponse["body"]): Promise<string> => {
  if (body === null) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  return new TextDecoder().decode(Buffer.concat(chunks));
};

/** The answer `res` as a {@link SentResponse}; `source` is its body (`res`, or a decompressor on it), null for none. */
export const sentResponse = (res: IncomingMessage, source: Readable | null, options: BodyOptions): SentResponse => {
  const status = res.statusCode ?? 0;
  const body = source === null ? null : bodyOf(source, res, options);
  return {
    status,
    statusText: res.statusMessage ?? "",
    ok: status >= 200 && status <= 299,
    headers: headersOf(res),
    body,
    text: () => textOf(body),
  };
};

/** `response` as a web `Response` (for the AI SDK's provider), its body a web stream over the same reader. */
export const webResponse = (response: SentResponse): Response => {
  const headers = new Headers();
  response.headers.forEach((value, name) => headers.append(name, value));
  const init = { status: response.status, statusText: response.statusText, headers };
  if (response.body === null) return new Response(null, init);
  const reader = response.body.getReader();
  const stream = new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      try {
        const read = await reader.read();
        if (read.done) controller.close();
        else controller.enqueue(read.value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(stream, init);
};
