/**
 * The SessionStore port: sessions kept on disk under the session's cwd, each held by one process at a
 * time, written as the turn goes (what is new since the last write) so a crash loses at most the step
 * in flight.
 */
import type { ResultAsync } from "neverthrow";
import type { History } from "../history/message.js";
import type { PermissionMode } from "../vocabulary/permission-mode.js";

/** A session as kept on disk. */
export type StoredSession = {
  readonly id: string;
  readonly cwd: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly history: History;
  /** One line naming the conversation; absent in files written before titles existed. */
  readonly title?: string | undefined;
  /** The model the session asks for, when the user chose one. */
  readonly model?: string | undefined;
  /** The session's permission mode, when not `ask`. */
  readonly mode?: PermissionMode | undefined;
  /** The reasoning effort the session asks for, when the user chose one. */
  readonly effort?: string | undefined;
  /** What the session's model steps cost so far, in US dollars, when a price was known. */
  readonly cost?: number | undefined;
  /**
   * Set by a load only: the mode, model and effort the file asked for that the store could not prove
   * this user's mm wrote (a file a repository ships, or one a command rewrote). They are not in `mode`,
   * `model` and `effort`: the session runs in `ask` on the configured ones, and the front end says so once.
   */
  readonly unproven?: { readonly model?: string; readonly mode?: PermissionMode; readonly effort?: string };
};

/** A stored session as a listing shows it. */
export type StoredSessionSummary = {
  readonly id: string;
  readonly cwd: string;
  /** Its title, or one derived from its first message for files written before titles existed. */
  readonly title: string | undefined;
  readonly createdAt: number;
  readonly updatedAt: number;
};

/** Why a session could not be saved, loaded or held. */
export type StoreError =
  | { readonly kind: "invalid-id"; readonly id: string }
  | { readonly kind: "not-found"; readonly id: string }
  | { readonly kind: "corrupt"; readonly id: string; readonly message: string }
  | { readonly kind: "unsupported-version"; readonly id: string; readonly version: unknown }
  /** Another live process holds the session; `holder` names it for a person ("pid 4242"). */
  | { readonly kind: "busy"; readonly id: string; readonly holder: string }
  /** The session changed on disk since this process read or wrote it (another process wrote it). */
  | { readonly kind: "conflict"; readonly id: string; readonly message: string }
  | { readonly kind: "io"; readonly id: string; readonly message: string };

/**
 * The SessionStore port. No method throws or rejects. A session is **held** by at most one process:
 * `load` and `save` take the hold (or fail `busy` when another live process has it); a process that
 * died holding it loses it to the next one that asks. Saves and loads of one session run in the order
 * they were called.
 */
export type SessionStore = {
  /**
   * Keeps `session` on disk and holds it. The store compares the history with what it last wrote of
   * this session: when it only adds messages (or replaces the system prompt) it writes just those, else
   * it rewrites the whole session; either way a crash leaves the previous or the new state, whole.
   * A save that fails changes nothing on disk, and the next one writes everything not yet written.
   */
  readonly save: (session: StoredSession) => ResultAsync<void, StoreError>;
  /** Reads a session of `cwd` and holds it; an id not of the session-id form fails `invalid-id` before any path is built. */
  readonly load: (cwd: string, id: string) => ResultAsync<StoredSession, StoreError>;
  /** The sessions stored for `cwd` (those whose cwd is `cwd`), newest first; none when there is no sessions dir. */
  readonly list: (cwd: string) => ResultAsync<readonly StoredSessionSummary[], StoreError>;
  /** Removes a stored session of `cwd`; removing one that does not exist succeeds. */
  readonly remove: (cwd: string, id: string) => ResultAsync<void, StoreError>;
  /**
   * Makes sure this process holds the session before it is changed: `busy` when another live process
   * holds it, `conflict` when the session changed on disk since this process last read or wrote it.
   * A session this process never wrote nor loaded (a new one) has nothing to conflict with.
   */
  readonly hold: (cwd: string, id: string) => ResultAsync<void, StoreError>;
  /** Leaves the session tidy on disk (one document) and lets other processes hold it. */
  readonly release: (cwd: string, id: string) => ResultAsync<void, StoreError>;
  /**
   * Makes the session's document whole again (what a store keeps beside it, such as a journal of the
   * turn in flight, written into it), keeping the session held; called once a turn's answer is out.
   * Absent: the store's document is always whole.
   */
  readonly fold?: (cwd: string, id: string) => ResultAsync<void, StoreError>;
};

/** One line for the user or the log. */
export const describeStoreError = (error: StoreError): string => {
  switch (error.kind) {
    case "invalid-id":
      return "not a session id (expected YYYYMMDD-HHMMSS-xxxxxxxx)";
    case "not-found":
      return `no saved session ${error.id}`;
    case "corrupt":
      return `session file is corrupt: ${error.message}`;
    case "unsupported-version":
      return `session file has version ${JSON.stringify(error.version)}, newer than this mm understands`;
    case "busy":
      return `session is open in another mm process, ${error.holder}`;
    case "conflict":
      return `${error.message}; load the session again`;
    case "io":
      return error.message;
  }
};
