/**
 * The agent's output stream, batched: the bytes of every message are queued, in order, and written to
 * stdout in one `write` per event-loop turn (or as soon as 64 KiB are queued). Writing each message
 * with its own `write` costs a pipe syscall and a wake-up of the editor per message, a large part of
 * the agent's CPU when a model streams many small deltas (each one an `agent_message_chunk`). Order is
 * kept: a message is queued before its write resolves, and the queue is written first-in first-out.
 * Text is queued as text and encoded once per batch. Whatever is queued when the process exits is
 * written then (stdout pipes and files are synchronous on Linux), so `process.exit` never drops an
 * answer.
 */
import type { Writable as NodeWritable } from "node:stream";

const FLUSH_BYTES = 64 * 1024;
const RESOLVED = Promise.resolve();

export type BatchedOutput = {
  /** Queues bytes (synchronously, in order); resolves when more may be written. */
  readonly write: (chunk: Uint8Array) => Promise<void>;
  /** Queues text, written as UTF-8, in order with the bytes. */
  readonly writeText: (text: string) => Promise<void>;
  /** Writes what is queued now. */
  readonly flush: () => void;
};

export const batchedOutput = (out: NodeWritable): BatchedOutput => {
  let queued: (Uint8Array | string)[] = [];
  let bytesQueued = false;
  let size = 0;
  let scheduled = false;
  let drained: Promise<void> | undefined;

  const waitForDrain = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const done = (): void => {
        out.off("drain", done);
        out.off("close", done);
        out.off("error", done);
        drained = undefined;
        resolve();
      };
      out.on("drain", done);
      out.on("close", done);
      out.on("error", done);
    });

  const flush = (): void => {
    scheduled = false;
    if (queued.length === 0 || out.destroyed) return;
    const items = queued;
    const mixed = bytesQueued;
    queued = [];
    size = 0;
    bytesQueued = false;
    const batch =
      items.length === 1
        ? items[0]!
        : mixed
          ? Buffer.concat(items.map((item) => (typeof item === "string" ? Buffer.from(item, "utf8") : item)))
          : items.join("");
    // Where the stream buffers instead of writing at once (a TTY on some systems), later writers
    // wait for it to drain: memory stays bounded by what the editor reads.
    if (!out.write(batch) && drained === undefined) drained = waitForDrain();
  };

  /** Counts UTF-16 units for text: the batch is written at 64 Ki of them or bytes, give or take. */
  const queue = (item: Uint8Array | string, length: number): Promise<void> => {
    queued.push(item);
    size += length;
    if (size >= FLUSH_BYTES) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
    return drained ?? RESOLVED;
  };

  const write = (chunk: Uint8Array): Promise<void> => {
    bytesQueued = true;
    return queue(chunk, chunk.byteLength);
  };

  const writeText = (text: string): Promise<void> => queue(text, text.length);

  return { write, writeText, flush };
};

/** {@link batchedOutput} on process.stdout, flushed on exit. */
export const batchedStdout = (): BatchedOutput => {
  const output = batchedOutput(process.stdout);
  process.once("exit", output.flush);
  return output;
};
