/**
 * The UndoStore port: what `/undo` needs beside the history. On the session's side, the log of the
 * turns that can be taken back and the before-states of the files they changed (content-addressed
 * blobs kept with the session); on the workspace's side, a file as it is now and putting one back,
 * never through a symbolic link.
 */
import type { ResultAsync } from "neverthrow";

/** Whose undo data: the session's id in its cwd (the sessions dir is relative to it). */
export type UndoPlace = { readonly cwd: string; readonly sessionId: string };

/**
 * A file's content at one moment: absent, the hash and size of its bytes (and its permission bits,
 * `0o644`, when they were seen), or not known (why).
 */
export type UndoFileState =
  | { readonly kind: "absent" }
  | { readonly kind: "blob"; readonly hash: string; readonly size: number; readonly mode?: number }
  | { readonly kind: "unknown"; readonly reason: string };

/** One file a turn changed: what it held before the turn (kept as a blob), and what the turn left. */
export type UndoFile = { readonly path: string; readonly before: UndoFileState; readonly after: UndoFileState };

/** A turn that can be undone: where its prompt is in the history, the start of that prompt, its files. */
export type UndoTurn = {
  /** Index of the turn's user message in the history (the history goes back to this many messages). */
  readonly at: number;
  /** The first characters of the user message, to recognise it. */
  readonly question: string;
  readonly files: readonly UndoFile[];
};

/** The turns that can be undone, oldest first. */
export type UndoLog = { readonly turns: readonly UndoTurn[] };

/** What is at a path now: nothing, a regular file's bytes and permission bits, or something that cannot be read as such. */
export type FileNow =
  | { readonly kind: "absent" }
  | {
      readonly kind: "bytes";
      readonly bytes: Uint8Array;
      readonly mode?: number;
      /** When the file (its inode) was made, ms since the epoch, where the file system tells. */
      readonly born?: number;
    }
  | { readonly kind: "unreadable"; readonly reason: string };

/** Why undo data could not be read or written: one line. */
export type UndoStoreError = { readonly kind: "corrupt" | "io"; readonly message: string };

/** The UndoStore port. No method throws or rejects. */
export type UndoStore = {
  /**
   * What `path` (absolute) holds now: its final component is never followed (a symbolic link is
   * `unreadable`), a file over `maxBytes` is `unreadable`.
   */
  readonly read: (path: string, maxBytes: number) => Promise<FileNow>;
  /** The content address of bytes (the same bytes, the same hash). */
  readonly hash: (bytes: Uint8Array) => string;
  /** Keeps bytes with the session under their hash; answers the hash. */
  readonly putBlob: (place: UndoPlace, bytes: Uint8Array) => ResultAsync<string, UndoStoreError>;
  /** Bytes kept under `hash`; `corrupt` when what is kept does not match it. */
  readonly getBlob: (place: UndoPlace, hash: string) => ResultAsync<Uint8Array, UndoStoreError>;
  /** The session's undo log: empty when there is none. */
  readonly loadLog: (place: UndoPlace) => ResultAsync<UndoLog, UndoStoreError>;
  /** Replaces the log, crash-safely; blobs no turn of it names are dropped. */
  readonly saveLog: (place: UndoPlace, log: UndoLog) => ResultAsync<void, UndoStoreError>;
  /**
   * Puts `bytes` at `path` (its missing directories created), or removes the file there (null). What
   * is at the path itself is replaced, a link included: nothing is written through a link, and a
   * directory on the way that is a link is refused. The file gets `mode` (permission bits, no setuid,
   * setgid or sticky bit) when given, else keeps the mode of the file it replaces, else a new file's.
   * The reason when it could not.
   */
  readonly restore: (path: string, bytes: Uint8Array | null, mode?: number) => ResultAsync<void, string>;
  /** Whether `path` is the store's own (the sessions dir of `cwd`): mm's files, never recorded nor restored. */
  readonly owns: (cwd: string, path: string) => boolean;
};

/** The sizes within which `/undo` keeps before-states. */
export type UndoLimits = {
  /** A file larger than this is named as not restorable. */
  readonly maxFileBytes: number;
  /** The before-states a session keeps together; the oldest turns are dropped to stay under it. */
  readonly maxSessionBytes: number;
};

/** 16 MiB a file, 256 MiB a session. */
export const DEFAULT_UNDO_LIMITS: UndoLimits = { maxFileBytes: 16 * 1024 * 1024, maxSessionBytes: 256 * 1024 * 1024 };

/** One line for the user or the log. */
export const describeUndoStoreError = (error: UndoStoreError): string => (error.kind === "corrupt" ? `undo data is corrupt: ${error.message}` : error.message);
