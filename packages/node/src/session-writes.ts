/**
 * How the JSON store writes one session it holds: append the new messages to `<id>.journal` (one
 * write, then fdatasync), or rewrite `<id>.json` whole under a new generation and drop the journal.
 * Each returns the session's new on-disk state, or an error with the previous state still true.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { open, unlink, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { err, ok, type Result } from "neverthrow";
import type { StoredSession } from "@mm/core";
import { errorCode, reasonOf } from "./errno.js";
import { encodeSessionDocument } from "./json-session-document.js";
import { stampFile, syncDir, writeAtomically, type FileStamp } from "./session-files.js";
import { journalHeader, journalLines } from "./session-journal.js";

/** The journal as this process left it. */
export type JournalState = {
  readonly ino: number;
  /** Its length: every byte this process wrote or read (a torn tail is cut off at load). */
  readonly bytes: number;
  /** Open for appending, once this process has appended. */
  readonly handle: FileHandle | undefined;
};

/** A session as it is on disk, as this process last wrote or read it. */
export type Kept = {
  readonly session: StoredSession;
  /** The document's generation; undefined for a document written by an mm without journals (rewritten at the first save). */
  readonly generation: string | undefined;
  readonly document: FileStamp;
  readonly journal: JournalState | undefined;
  /** The journal's tail is uncertain (a failed write could not be undone): the next save rewrites. */
  readonly broken: boolean;
};

/** Where a session's files are. */
export type SessionPaths = { readonly document: string; readonly journal: string; readonly lock: string };

const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);
const CREATE_FLAGS = APPEND_FLAGS | constants.O_CREAT | constants.O_EXCL;

const writeAll = async (handle: FileHandle, bytes: Buffer): Promise<void> => {
  for (let offset = 0; offset < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
};

const openJournal = async (path: string, create: boolean): Promise<FileHandle> => {
  try {
    return await open(path, create ? CREATE_FLAGS : APPEND_FLAGS, 0o600);
  } catch (error) {
    if (!create || errorCode(error) !== "EEXIST") throw error;
    // A journal left by a rewrite that could not remove it: it names an older generation, so it is stale.
    await unlink(path);
    return open(path, CREATE_FLAGS, 0o600);
  }
};

/** Closes the journal's handle, if open. */
export const closeJournal = async (kept: Kept | undefined): Promise<void> => {
  await kept?.journal?.handle?.close().catch(() => undefined);
};

/**
 * Appends `lines` (journal lines for `session`) to the journal, creating it with its header first.
 * On failure the journal is cut back to where it was; if even that fails, the state comes back `broken`.
 */
export const appendToJournal = async (
  paths: SessionPaths,
  kept: Kept & { readonly generation: string },
  session: StoredSession,
  lines: string,
): Promise<{ readonly kept: Kept; readonly error?: string }> => {
  const create = kept.journal === undefined;
  const before = kept.journal?.bytes ?? 0;
  let handle = kept.journal?.handle;
  const payload = Buffer.from(create ? journalHeader(session.id, kept.generation, kept.session.history.length) + lines : lines);
  try {
    handle ??= await openJournal(paths.journal, create);
    await writeAll(handle, payload);
    await handle.datasync();
    if (create) {
      const synced = await syncDir(dirname(paths.journal));
      if (synced.isErr()) throw new Error(synced.error);
    }
    const ino = kept.journal?.ino ?? (await handle.stat()).ino;
    return { kept: { ...kept, session, journal: { ino, bytes: before + payload.length, handle } } };
  } catch (error) {
    const message = `cannot write ${paths.journal}: ${reasonOf(error)}`;
    if (handle === undefined) return { kept: { ...kept, broken: create && (await stampFile(paths.journal)).map((s) => s !== "absent").unwrapOr(true) }, error: message };
    if (create) {
      await handle.close().catch(() => undefined);
      await unlink(paths.journal).catch(() => undefined);
      return { kept: { ...kept, broken: (await stampFile(paths.journal)).map((s) => s !== "absent").unwrapOr(true) }, error: message };
    }
    const undone = await handle.truncate(before).then(
      () => true,
      () => false,
    );
    return { kept: { ...kept, broken: kept.broken || !undone, journal: { ...kept.journal!, handle } }, error: message };
  }
};

/** A journal this long next to a document (or 1 MiB for small ones) is folded into it at the next save. */
const FOLD_MIN_BYTES = 1 << 20;

/** What a save writes: nothing, lines appended to the journal, or the whole document. */
export type WritePlan = "nothing" | { readonly kind: "append"; readonly lines: string } | { readonly kind: "rewrite"; readonly rewrite: Rewrite };

/**
 * What saving `session` takes, from what this process last wrote or read (`kept`): an append when it
 * only adds to it and the journal stays smaller than the document (and 1 MiB), else a rewrite. Fails
 * (before anything is written) when the session cannot be serialised.
 */
export const planWrite = (kept: Kept | undefined, session: StoredSession): Result<WritePlan, string> => {
  const appendable = kept !== undefined && kept.generation !== undefined && !kept.broken && kept.session.cwd === session.cwd && kept.session.createdAt === session.createdAt;
  const lines = appendable ? journalLines(kept.session.history, session.history, session.updatedAt) : undefined;
  if (lines !== undefined && lines.isErr()) return err(lines.error);
  if (lines !== undefined && lines.value === "") return ok("nothing");
  const documentBytes = kept === undefined || kept.document === "absent" ? 0 : kept.document.size;
  if (lines !== undefined && (kept?.journal?.bytes ?? 0) + Buffer.byteLength(lines.value) <= Math.max(FOLD_MIN_BYTES, documentBytes)) {
    return ok({ kind: "append", lines: lines.value });
  }
  return encodeRewrite(session).map((rewrite) => ({ kind: "rewrite", rewrite }));
};

/** A whole document ready to be written: its text and its new generation. */
export type Rewrite = { readonly session: StoredSession; readonly text: string; readonly generation: string };

/** The session encoded as a document under a new generation; fails before anything is written. */
export const encodeRewrite = (session: StoredSession): Result<Rewrite, string> => {
  const generation = randomBytes(6).toString("hex");
  return encodeSessionDocument(session, generation).map((text) => ({ session, text, generation }));
};

/** Rewrites the document whole under its new generation, then removes the journal it now contains. */
export const rewriteDocument = async (paths: SessionPaths, kept: Kept | undefined, rewrite: Rewrite): Promise<Result<Kept, string>> => {
  const { session, text, generation } = rewrite;
  const written = await writeAtomically(paths.document, text);
  if (written.isErr()) return err(written.error);
  await closeJournal(kept);
  await unlink(paths.journal).catch(() => undefined);
  const stamp = await stampFile(paths.document);
  return ok({ session, generation, document: stamp.unwrapOr("absent"), journal: undefined, broken: false });
};
