/** The SessionStore port: sessions on disk, one document per session under the session's cwd. */
import type { ResultAsync } from "neverthrow";
import type { History } from "../history/message.js";

/** A session as kept on disk. */
export type StoredSession = {
  readonly id: string;
  readonly cwd: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly history: History;
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
