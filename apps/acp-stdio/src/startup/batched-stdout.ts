/**
 * The agent's output stream, batched: the bytes of every message are queued, in order, and written to
 * stdout in one `write` per event-loop turn (or as soon as 64 KiB are queued). Writing each message
 * with its own `write` costs a pipe syscall and a wake-up of the editor per message: when a model
 * streams 20,000 small deltas (each one an `agent_message_chunk`), about a quarter of the agent's CPU
 * (apps/acp-stdio/bench: 95 → 68 µs per chunk with the AI SDK's streamText, before the switch to doStream).
 * Order is kept: a message is queued before its write resolves, and the queue is written first-in
 * first-out. Whatever is queued when the process exits is written then (stdout pipes and files are
 * synchronous on Linux), so `process.exit` never drops an answer.
 */
import type { Writable as NodeWritable } from "node:stream";

const FLUSH_BYTES = 64 * 1024;
const RESOLVED = Promise.resolve();

export type BatchedOutput = {
  /** Queues bytes (synchronously, in order); resolves when more may be written. */
  readonly write: (chunk: Uint8Array) => Promise<void>;
  /** Writes what is queued now. */
  readonly flush: () => void;
};

export const batchedOutput = (out: NodeWritable): BatchedOutput => {
  let queued: Uint8Array[] = [];
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
    const bytes = queued.length === 1 ? queued[0]! : Buffer.concat(queued, size);
    queued = [];
    size = 0;
    // Where the stream buffers instead of writing at once (a TTY on some systems), later writers
    // wait for it to drain: memory stays bounded by what the editor reads.
    if (!out.write(bytes) && drained === undefined) drained = waitForDrain();
  };

  const write = (chunk: Uint8Array): Promise<void> => {
    queued.push(chunk);
    size += chunk.byteLength;
    if (size >= FLUSH_BYTES) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
    return drained ?? RESOLVED;
  };

  return { write, flush };
};

/** {@link batchedOutput} on process.stdout, flushed on exit. */
export const batchedStdout = (): BatchedOutput => {
  const output = batchedOutput(process.stdout);
  process.once("exit", output.flush);
  return output;
};
