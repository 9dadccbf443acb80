/** The SessionStore port: sessions on disk, one document per session under the session's cwd. */
import type { ResultAsync } from "neverthrow";
import type { History } from "../history/message.js";
import type { PermissionMode } from "../session/permission-mode.js";

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

/** Why a session could not be saved or loaded. */
export type StoreError =
  | { readonly kind: "invalid-id"; readonly id: string }
  | { readonly kind: "not-found"; readonly id: string }
  | { readonly kind: "corrupt"; readonly id: string; readonly message: string }
  | { readonly kind: "unsupported-version"; readonly id: string; readonly version: unknown }
  | { readonly kind: "io"; readonly id: string; readonly message: string };

/** The SessionStore port. No method throws or rejects. */
export type SessionStore = {
  /** Writes the whole session atomically: afterwards the file holds either the old or the new document. */
  readonly save: (session: StoredSession) => ResultAsync<void, StoreError>;
  /** Reads a session of `cwd`; an id not of the session-id form fails `invalid-id` before any path is built. */
  readonly load: (cwd: string, id: string) => ResultAsync<StoredSession, StoreError>;
  /** The sessions stored for `cwd` (those whose cwd is `cwd`), newest first; none when there is no sessions dir. */
  readonly list: (cwd: string) => ResultAsync<readonly StoredSessionSummary[], StoreError>;
  /** Removes a stored session of `cwd`; removing one that does not exist succeeds. */
  readonly remove: (cwd: string, id: string) => ResultAsync<void, StoreError>;
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
    case "io":
      return error.message;
  }
};
