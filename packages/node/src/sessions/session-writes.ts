/**
 * How the JSON store writes one session it holds: what a save takes (an append to the journal, or a
 * rewrite), and the rewrite of `<id>.json` whole under a new generation, dropping the journal it now
 * contains (the append is session-journal-file.ts). What the store knows of a session on disk: `Kept`.
 */
import { randomBytes } from "node:crypto";
import { unlink } from "node:fs/promises";
import { err, ok, type Result } from "neverthrow";
import { titleOfHistory, type StoredSession } from "@mm/core";
import { encodeSessionDocument } from "./json-session-document.js";
import { stampFile, writeAtomically, type FileStamp } from "./session-files.js";
import { journalLines } from "./session-journal.js";

/** The journal as this process left it. */
export type JournalState = {
  readonly ino: number;
  /** Its length: every byte this process wrote or read (a torn tail is cut off at load). */
  readonly bytes: number;
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

/** A journal this long next to a document (or 1 MiB for small ones) is folded into it at the next save. */
const FOLD_MIN_BYTES = 1 << 20;

/**
 * Whether `session` keeps the title of `kept`. A document without a title (written before titles
 * existed) is loaded with the title of its first prompt: that title is the same at every load, so it
 * is no change, and the first turn after such a load appends rather than rewriting the whole document.
 */
const sameTitle = (kept: StoredSession, session: StoredSession): boolean =>
  kept.title === session.title || (kept.title === undefined && session.title === titleOfHistory(kept.history));

/** What a save writes: nothing, lines appended to the journal, or the whole document. */
export type WritePlan = "nothing" | { readonly kind: "append"; readonly lines: string } | { readonly kind: "rewrite"; readonly rewrite: Rewrite };

/**
 * What saving `session` takes, from what this process last wrote or read (`kept`): an append when it
 * only adds to it and the journal stays smaller than the document (and 1 MiB), else a rewrite. Fails
 * (before anything is written) when the session cannot be serialised.
 */
export const planWrite = (kept: Kept | undefined, session: StoredSession, key?: Uint8Array): Result<WritePlan, string> => {
  // The journal holds messages only: a change of title, model, mode, effort or cost (once a turn) rewrites the document.
  const sameSettings =
    kept !== undefined &&
    sameTitle(kept.session, session) &&
    kept.session.model === session.model &&
    kept.session.mode === session.mode &&
    kept.session.effort === session.effort &&
    kept.session.cost === session.cost;
  const appendable =
    kept !== undefined &&
    sameSettings &&
    kept.generation !== undefined &&
    !kept.broken &&
    kept.session.cwd === session.cwd &&
    kept.session.createdAt === session.createdAt;
  const lines = appendable ? journalLines(kept.session.history, session.history, session.updatedAt) : undefined;
  // biome-ignore lint/complexity/useOptionalChain: the explicit check narrows `lines` for the lines below
  if (lines !== undefined && lines.isErr()) return err(lines.error);
  if (lines !== undefined && lines.value === "") return ok("nothing");
  const documentBytes = kept === undefined || kept.document === "absent" ? 0 : kept.document.size;
  if (lines !== undefined && (kept?.journal?.bytes ?? 0) + Buffer.byteLength(lines.value) <= Math.max(FOLD_MIN_BYTES, documentBytes)) {
    return ok({ kind: "append", lines: lines.value });
  }
  return encodeRewrite(session, key).map((rewrite) => ({ kind: "rewrite", rewrite }));
};

/** A whole document ready to be written: its text and its new generation. */
export type Rewrite = { readonly session: StoredSession; readonly text: string; readonly generation: string };

/**
 * The session encoded as a document under a new generation, its mode and model signed with `key` (the
 * user's key; unsigned, they load as `ask` and the configured model); fails before anything is written.
 */
export const encodeRewrite = (session: StoredSession, key?: Uint8Array): Result<Rewrite, string> => {
  const generation = randomBytes(6).toString("hex");
  return encodeSessionDocument(session, generation, key).map((text) => ({ session, text, generation }));
};

/** Rewrites the document whole under its new generation, then removes the journal it now contains. */
export const rewriteDocument = async (paths: SessionPaths, rewrite: Rewrite): Promise<Result<Kept, string>> => {
  const { session, text, generation } = rewrite;
  const written = await writeAtomically(paths.document, text);
  if (written.isErr()) return err(written.error);
  await unlink(paths.journal).catch(() => undefined);
  const stamp = await stampFile(paths.document);
  return ok({ session, generation, document: stamp.unwrapOr("absent"), journal: undefined, broken: false });
};
