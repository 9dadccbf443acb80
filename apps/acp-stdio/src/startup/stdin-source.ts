/**
 * stdin as a byte source for the ACP stream, read with plain Node stream events: `Readable.toWeb`
 * would load Node's web streams at start-up for one reader. Reading pauses while more than a few
 * chunks wait to be parsed, so memory stays bounded by what the agent gets through.
 */
import type { Readable } from "node:stream";
import type { ByteSource } from "../wire/light-streams.js";

/** Chunks (64 KiB each from a pipe) queued before reading pauses. */
const HIGH_WATER = 16;

export const nodeByteSource = (input: Readable): ByteSource => {
  const chunks: Uint8Array[] = [];
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  input.on("data", (chunk: Uint8Array) => {
    chunks.push(chunk);
    if (chunks.length >= HIGH_WATER) input.pause();
    notify();
  });
  input.once("end", () => {
    ended = true;
    notify();
  });
  input.once("error", (error: unknown) => {
    failure = error;
    notify();
  });
  return {
    read: async () => {
      while (chunks.length === 0 && !ended && failure === undefined) await new Promise<void>((resolve) => (wake = resolve));
      const value = chunks.shift();
      if (value !== undefined) {
        if (chunks.length < HIGH_WATER && input.isPaused()) input.resume();
        return { done: false, value };
      }
      if (failure !== undefined) throw failure;
      return { done: true };
    },
    cancel: async () => {
      ended = true;
      input.destroy();
      notify();
    },
  };
};
