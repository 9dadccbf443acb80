/** A SessionStore in memory, keyed by cwd and id; it keeps deep copies so callers cannot alias them. */
import { errAsync, okAsync } from "neverthrow";
import { isSessionId } from "../session/session-id.js";
import { titleOfHistory } from "../session/title.js";
import type { SessionStore, StoredSession } from "../ports/session-store.js";

/** A SessionStore whose saved sessions you can inspect. */
export type InMemorySessionStore = SessionStore & { readonly saved: Map<string, StoredSession> };

/** An empty in-memory SessionStore. */
export const inMemorySessionStore = (): InMemorySessionStore => {
  const saved = new Map<string, StoredSession>();
  const key = (cwd: string, id: string) => `${cwd}\u0000${id}`;
  return {
    saved,
    save: (session) => {
      if (!isSessionId(session.id)) return errAsync({ kind: "invalid-id", id: session.id });
      saved.set(key(session.cwd, session.id), structuredClone(session));
      return okAsync(undefined);
    },
    list: (cwd) =>
      okAsync(
        [...saved.values()]
          .filter((s) => s.cwd === cwd)
          .sort((a, b) => b.updatedAt - a.updatedAt || b.id.localeCompare(a.id))
          .map((s) => ({ id: s.id, cwd: s.cwd, title: s.title ?? titleOfHistory(s.history), createdAt: s.createdAt, updatedAt: s.updatedAt })),
      ),
    remove: (cwd, id) => {
      if (!isSessionId(id)) return errAsync({ kind: "invalid-id", id });
      saved.delete(key(cwd, id));
      return okAsync(undefined);
    },
    load: (cwd, id) => {
      if (!isSessionId(id)) return errAsync({ kind: "invalid-id", id });
      const session = saved.get(key(cwd, id));
      return session === undefined ? errAsync({ kind: "not-found", id }) : okAsync(structuredClone(session));
    },
  };
};
