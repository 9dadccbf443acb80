/**
 * Appending to a session's journal: open, one `write` of the new lines (the header first when the
 * journal is new), then `fdatasync` and close, synchronously (a few kB and one disk flush: cheaper
 * than the thread-pool round trips of the async calls) or on the thread pool (below). A write cut
 * short is undone.
 *
 * The `write` always happens before the append returns: from then on the lines survive the process
 * (a SIGKILL, an out-of-memory kill), being in the kernel's page cache. The flush to the disk, which
 * only a power loss or a kernel crash needs, is done before returning when `flush` is `now`; when it
 * is `soon`, it runs on libuv's thread pool while the agent goes on, and the append returns it as a
 * promise (the store waits for it before its next operation on the session, json-session-store.ts).
 */
import { close, closeSync, constants, fdatasync, fdatasyncSync, fstatSync, ftruncateSync, lstatSync, openSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { StoredSession } from "@mm/core";
import { errorCode, reasonOf } from "../errno.js";
import { syncDir } from "./session-files.js";
import { journalHeader } from "./session-journal.js";
import type { Kept, SessionPaths } from "./session-writes.js";

/** Never through a symlink; never blocking on a FIFO planted in its place (ENXIO instead). */
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const CREATE_FLAGS = APPEND_FLAGS | constants.O_CREAT | constants.O_EXCL;

const openJournal = (path: string, create: boolean): number => {
  try {
    return openSync(path, create ? CREATE_FLAGS : APPEND_FLAGS, 0o600);
  } catch (error) {
    if (!create || errorCode(error) !== "EEXIST") throw error;
    // A journal left by a rewrite that could not remove it: it names an older generation, so it is stale.
    unlinkSync(path);
    return openSync(path, CREATE_FLAGS, 0o600);
  }
};

const writeAll = (fd: number, bytes: Buffer): void => {
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
};

const exists = (path: string): boolean => {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** When an append's flush to the disk is done: before it returns, or on the thread pool (see the module comment). */
export type Flush = "now" | "soon";

/** The flush of `fd` on the thread pool, then its close: what went wrong, or undefined. */
const flushInBackground = (fd: number, path: string): Promise<string | undefined> =>
  new Promise((resolve) =>
    fdatasync(fd, (flushError) => close(fd, () => resolve(flushError === null ? undefined : `cannot write ${path}: ${reasonOf(flushError)}`))),
  );

/**
 * Appends `lines` (journal lines for `session`) to the journal, creating it with its header first.
 * The file is opened for each append and closed after it (a process may hold many sessions; it keeps no
 * descriptor). On failure the journal is cut back to where it was (a new one removed); if even that
 * fails, the state comes back `broken` (the next save rewrites the document). A new journal is always
 * flushed `now` (and its directory with it); with `soon`, `flushing` settles with the flush's problem
 * (or undefined) once it is done.
 */
export const appendToJournal = async (
  paths: SessionPaths,
  kept: Kept & { readonly generation: string },
  session: StoredSession,
  lines: string,
  flush: Flush = "now",
): Promise<{ readonly kept: Kept; readonly error?: string; readonly flushing?: Promise<string | undefined> }> => {
  const create = kept.journal === undefined;
  const before = kept.journal?.bytes ?? 0;
  const payload = Buffer.from(create ? journalHeader(session.id, kept.generation, kept.session.history.length) + lines : lines);
  let fd: number | undefined;
  try {
    fd = openJournal(paths.journal, create);
    writeAll(fd, payload);
    const journal = { ino: kept.journal?.ino ?? fstatSync(fd).ino, bytes: before + payload.length };
    if (flush === "soon" && !create) {
      const flushing = flushInBackground(fd, paths.journal);
      fd = undefined;
      return { kept: { ...kept, session, journal }, flushing };
    }
    fdatasyncSync(fd);
    closeSync(fd);
    fd = undefined;
    if (create) {
      const synced = await syncDir(dirname(paths.journal));
      if (synced.isErr()) throw new Error(synced.error);
    }
    return { kept: { ...kept, session, journal } };
  } catch (error) {
    const message = `cannot write ${paths.journal}: ${reasonOf(error)}`;
    let undone = fd !== undefined || !create;
    try {
      if (fd !== undefined && !create) ftruncateSync(fd, before);
    } catch {
      undone = false;
    }
    if (fd !== undefined) closeSync(fd);
    if (create && fd !== undefined) {
      try {
        unlinkSync(paths.journal);
      } catch {
        // still there: the next save rewrites the document instead
      }
    }
    if (create) return { kept: { ...kept, broken: exists(paths.journal) }, error: message };
    return { kept: { ...kept, broken: kept.broken || !undone }, error: message };
  }
};
