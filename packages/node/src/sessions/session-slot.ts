/**
 * What jsonSessionStore knows of one session (its slot): its files, the lock it holds, what it last
 * wrote or read, the append still being flushed; and how its files are checked against that.
 */
import { err, ok, type Result } from "neverthrow";
import type { StoredSession } from "@mm/core";
import { sameStamp, stampFile } from "./session-files.js";
import type { Flush } from "./session-journal-file.js";
import type { HeldLock } from "./session-lock.js";
import type { Kept, SessionPaths } from "./session-writes.js";

/** What the store knows of one session: its files, the lock it holds, what it last wrote or read. */
export type Slot = {
  readonly dir: string;
  /** The session's cwd, from which no component of the way to `dir` may be a symlink. */
  readonly cwd: string;
  readonly paths: SessionPaths;
  lock: HeldLock | undefined;
  kept: Kept | undefined;
  /** The last append's flush to the disk while it runs on the thread pool (session-journal-file.ts). */
  flushing: Promise<string | undefined> | undefined;
};

/**
 * When an append is flushed to the disk: before the save returns when the history ends with tool calls
 * (they run next, and may change the machine: the calls are on the disk first), else (tool results,
 * an answer) while the agent goes on to its next model request, which changes nothing on the machine.
 */
export const flushOf = (session: StoredSession): Flush => {
  const last = session.history[session.history.length - 1];
  return last !== undefined && last.role === "assistant" && last.toolCalls.length > 0 ? "now" : "soon";
};

/**
 * Waits for the slot's flush still running, if any: the store's operations on a session start once the
 * previous append is on the disk. A flush that failed leaves the files `broken`: the next save rewrites
 * the document whole (and says so if it cannot).
 */
export const flushed = async (slot: Slot): Promise<void> => {
  const flushing = slot.flushing;
  if (flushing === undefined) return;
  slot.flushing = undefined;
  if ((await flushing) !== undefined && slot.kept !== undefined) slot.kept = { ...slot.kept, broken: true };
};

/** Whether the files are still as this process left them (their stamps), without reading them. */
export const stampsUnchanged = async (slot: Slot, kept: Kept): Promise<Result<boolean, string>> => {
  const document = await stampFile(slot.paths.document);
  if (document.isErr()) return err(document.error);
  const journal = await stampFile(slot.paths.journal);
  if (journal.isErr()) return err(journal.error);
  const expected = kept.journal;
  const journalSame =
    expected === undefined
      ? journal.value === "absent" || kept.broken
      : journal.value !== "absent" && journal.value.ino === expected.ino && (kept.broken || journal.value.size === expected.bytes);
  return ok(sameStamp(document.value, kept.document) && journalSame);
};
