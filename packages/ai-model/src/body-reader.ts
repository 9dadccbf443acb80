/**
 * A response body read chunk by chunk straight from Node's stream, without a web stream: the socket's
 * chunks queued while the reader is behind (the socket paused past a high-water mark), every chunk
 * counting as progress for the body timeout, and a break-off, a stall or an abort failing the next
 * read as Node's fetch fails its body (`TypeError("terminated", { cause })` with undici's codes, or
 * the signal's reason).
 */
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import type { BodyRead } from "./http-answer.js";

type Coded = Error & { code: string };
const coded = (name: string, message: string, code: string): Coded => Object.assign(new Error(message), { name, code });
const terminated = (cause: unknown): TypeError => new TypeError("terminated", { cause });
const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new DOMException("This operation was aborted", "AbortError");

/** Bytes queued for a slow reader before the socket is paused. */
const HIGH_WATER_BYTES = 256 * 1024;

/** Reads `source` (the response, or its decompressor) of `res` (see the module comment). */
export const bodyReader = (source: Readable, res: IncomingMessage, signal: AbortSignal | null | undefined, bodyTimeoutMs: number) => {
  const queue: Buffer[] = [];
  let head = 0;
  let queued = 0;
  let ended = false;
  let failure: { readonly error: unknown } | undefined;
  let waiting: { readonly resolve: (read: BodyRead) => void; readonly reject: (error: unknown) => void } | undefined;
  let received = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const stop = (): void => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  };
  const fail = (error: unknown): void => {
    if (stopped) return;
    stop();
    failure = { error };
    res.destroy();
    const waiter = waiting;
    waiting = undefined;
    waiter?.reject(error);
  };
  const onAbort = (): void => fail(abortReason(signal!));

  // Re-armed while chunks keep coming: at most one timer per `bodyTimeoutMs`, nothing per chunk.
  let seen = -1;
  const check = (): void => {
    if (received === seen) return fail(terminated(coded("BodyTimeoutError", "Body Timeout Error", "UND_ERR_BODY_TIMEOUT")));
    seen = received;
    timer = setTimeout(check, bodyTimeoutMs);
    timer.unref();
  };
  check();
  signal?.addEventListener("abort", onAbort, { once: true });
  source.on("data", (chunk: Buffer) => {
    // Chunks already read from the socket still come after a cancel or a failure: dropped.
    if (stopped) return;
    received++;
    const waiter = waiting;
    if (waiter !== undefined) {
      waiting = undefined;
      waiter.resolve({ done: false, value: chunk });
      return;
    }
    queue.push(chunk);
    queued += chunk.length;
    if (queued > HIGH_WATER_BYTES) source.pause();
  });
  source.once("end", () => {
    if (stopped) return;
    stop();
    ended = true;
    const waiter = waiting;
    waiting = undefined;
    waiter?.resolve({ done: true });
  });
  // The socket closing early (Node: "aborted", ECONNRESET) reads as undici's SocketError.
  const closed = (cause?: unknown): void => fail(terminated(Object.assign(coded("SocketError", "other side closed", "UND_ERR_SOCKET"), cause ? { cause } : {})));
  res.once("error", closed);
  if (source !== res) source.once("error", (error) => fail(terminated(error)));
  res.once("close", () => {
    if (!res.complete) closed();
  });

  const read = (): Promise<BodyRead> => {
    if (head < queue.length) {
      const value = queue[head]!;
      queue[head++] = undefined as unknown as Buffer;
      queued -= value.length;
      if (head === queue.length) {
        queue.length = 0;
        head = 0;
      }
      if (source.isPaused() && queued <= HIGH_WATER_BYTES) source.resume();
      return Promise.resolve({ done: false, value });
    }
    if (failure !== undefined) return Promise.reject(failure.error);
    if (ended) return Promise.resolve({ done: true });
    if (source.isPaused()) source.resume();
    return new Promise((resolve, reject) => (waiting = { resolve, reject }));
  };

  const cancel = (): void => {
    if (stopped && (ended || failure !== undefined)) return;
    stop();
    ended = true;
    queue.length = 0;
    head = 0;
    res.destroy();
    const waiter = waiting;
    waiting = undefined;
    waiter?.resolve({ done: true });
  };

  return { read, cancel };
};
