/**
 * The message streams handed to the ACP SDK, without Node's web streams. The SDK reads with
 * `readable.getReader().read()` and writes with `writable.getWriter().write()`, taking and releasing a
 * writer per message; Node's WHATWG streams cost about 10 ms of start-up here (loading their modules,
 * and a V8 context made the first time a writer is released) and a writer per streamed chunk. These
 * objects offer exactly what the SDK and our tests use of them: `getReader` (`read`, `releaseLock`,
 * `cancel`) and `getWriter` (`write`, `releaseLock`, `close`, `abort`, `ready`, `closed`).
 */

/** Where bytes come from: a web stream's reader, or stdin read directly (startup/stdin-source.ts). */
export type ByteSource = {
  /** The next chunk, `done` once the input ended; rejects when the input failed. */
  readonly read: () => Promise<{ readonly done: boolean; readonly value?: Uint8Array | undefined }>;
  readonly cancel: (reason?: unknown) => Promise<void>;
};

/** A web ReadableStream as a byte source (what tests and other embedders give). */
export const webByteSource = (input: ReadableStream<Uint8Array>): ByteSource => {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return {
    read: () => {
      reader ??= input.getReader();
      return reader.read();
    },
    cancel: (reason) => (reader !== undefined ? reader.cancel(reason) : input.cancel(reason)),
  };
};

/** What the reader side needs: the next message, undefined once the input ended. */
export type NextMessage<T> = () => Promise<T | undefined>;

const RESOLVED = Promise.resolve();

type ReadResult<T> = { readonly done: false; readonly value: T } | { readonly done: true; readonly value: undefined };

/**
 * A readable of messages for the SDK: `read` calls `next` one at a time (concurrent reads wait their
 * turn) and answers `done` once it gave undefined or the reader was cancelled.
 */
export const lightReadable = <T>(next: NextMessage<T>, cancel: (reason?: unknown) => Promise<void>): ReadableStream<T> => {
  let turn: Promise<unknown> = RESOLVED;
  let finished = false;
  const read = (): Promise<ReadResult<T>> => {
    const result = turn.then(async (): Promise<ReadResult<T>> => {
      if (finished) return { done: true, value: undefined };
      const value = await next();
      if (value === undefined) finished = true;
      return value === undefined ? { done: true, value: undefined } : { done: false, value };
    });
    turn = result.catch(() => undefined);
    return result;
  };
  const reader = {
    read,
    releaseLock: () => undefined,
    cancel: async (reason?: unknown) => {
      finished = true;
      await cancel(reason);
    },
    get closed() {
      return turn.then(() => undefined);
    },
  };
  return { getReader: () => reader } as unknown as ReadableStream<T>;
};

/** A writable of messages for the SDK: each `write` is `write(message)`, in the order of the calls. */
export const lightWritable = <T>(write: (message: T) => Promise<void>): WritableStream<T> => {
  const writer = {
    write,
    releaseLock: () => undefined,
    close: () => RESOLVED,
    abort: () => RESOLVED,
    ready: RESOLVED,
    closed: new Promise<void>(() => undefined),
    desiredSize: 1,
  };
  return { getWriter: () => writer, locked: false } as unknown as WritableStream<T>;
};
