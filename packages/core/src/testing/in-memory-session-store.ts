/**
 * A SessionStore in memory, with the semantics of the JSON store: sessions keyed by cwd and id, held by
 * one "process" at a time (`otherProcess()` makes another one over the same sessions, `die()` ends one),
 * conflicts detected by a version per session, failures injected with `failWrites`. It keeps deep
 * copies so callers cannot alias them.
 */
import { errAsync, okAsync, type ResultAsync } from "neverthrow";
import { isSessionId } from "../session/session-id.js";
import { titleOfHistory } from "../session/title.js";
import type { SessionStore, StoreError, StoredSession } from "../ports/session-store.js";

/** A SessionStore whose saved sessions you can inspect and whose disk you can break. */
export type InMemorySessionStore = SessionStore & {
  /** The sessions as a load would return them, by `cwd + "\0" + id`, shared by every process. */
  readonly saved: Map<string, StoredSession>;
  /** How each save of this process was written: `append` (only what was new), `rewrite`, or `none` (nothing new). */
  readonly writes: ("append" | "rewrite" | "none")[];
  /** Another process over the same sessions, with holds of its own; named `pid N` in `busy` errors. */
  readonly otherProcess: () => InMemorySessionStore;
  /** This process ends without releasing anything: its holds go to the next process that asks. */
  readonly die: () => void;
  /** Every write of every process fails `io` with this message from now on; `undefined` heals the disk. */
  readonly failWrites: (message: string | undefined) => void;
};

type Disk = {
  readonly saved: Map<string, StoredSession>;
  /** Bumped by every write of a session. */
  readonly versions: Map<string, number>;
  /** The process holding each session. */
  readonly holders: Map<string, number>;
  readonly alive: Set<number>;
  failure: string | undefined;
  lastPid: number;
};

const key = (cwd: string, id: string): string => `${cwd}\u0000${id}`;

/** Whether `next` is `previous` plus messages (its system prompt may differ). */
const extendsHistory = (previous: StoredSession, next: StoredSession): boolean => {
  if (next.history.length < previous.history.length || next.cwd !== previous.cwd || next.createdAt !== previous.createdAt) return false;
  for (let i = 1; i < previous.history.length; i++) {
    if (JSON.stringify(previous.history[i]) !== JSON.stringify(next.history[i])) return false;
  }
  return true;
};

const processOn = (disk: Disk): InMemorySessionStore => {
  const pid = ++disk.lastPid;
  disk.alive.add(pid);
  /** The version of each session this process last read or wrote. */
  const seen = new Map<string, number>();
  const writes: InMemorySessionStore["writes"] = [];

  const take = (k: string, id: string): StoreError | undefined => {
    const holder = disk.holders.get(k);
    if (holder !== undefined && holder !== pid && disk.alive.has(holder)) return { kind: "busy", id, holder: `pid ${holder}` };
    disk.holders.set(k, pid);
    return undefined;
  };
  const conflicted = (k: string, id: string): StoreError | undefined => {
    const last = seen.get(k);
    return last !== undefined && last !== (disk.versions.get(k) ?? 0)
      ? { kind: "conflict", id, message: "the session was changed on disk by another process" }
      : undefined;
  };

  return {
    saved: disk.saved,
    writes,
    otherProcess: () => processOn(disk),
    die: () => void disk.alive.delete(pid),
    failWrites: (message) => {
      disk.failure = message;
    },
    save: (session): ResultAsync<void, StoreError> => {
      const { id } = session;
      if (!isSessionId(id)) return errAsync({ kind: "invalid-id", id });
      const k = key(session.cwd, id);
      const refused = take(k, id) ?? conflicted(k, id);
      if (refused !== undefined) return errAsync(refused);
      const previous = seen.has(k) ? disk.saved.get(k) : undefined;
      const unchanged =
        previous !== undefined &&
        previous.title === session.title &&
        previous.model === session.model &&
        previous.mode === session.mode &&
        JSON.stringify(previous.history) === JSON.stringify(session.history);
      if (unchanged) {
        writes.push("none");
        return okAsync(undefined);
      }
      if (disk.failure !== undefined) return errAsync({ kind: "io", id, message: disk.failure });
      writes.push(previous !== undefined && extendsHistory(previous, session) ? "append" : "rewrite");
      disk.saved.set(k, structuredClone(session));
      const version = (disk.versions.get(k) ?? 0) + 1;
      disk.versions.set(k, version);
      seen.set(k, version);
      return okAsync(undefined);
    },
    list: (cwd) =>
      okAsync(
        [...disk.saved.values()]
          .filter((s) => s.cwd === cwd)
          .sort((a, b) => b.updatedAt - a.updatedAt || b.id.localeCompare(a.id))
          .map((s) => ({ id: s.id, cwd: s.cwd, title: s.title ?? titleOfHistory(s.history), createdAt: s.createdAt, updatedAt: s.updatedAt })),
      ),
    remove: (cwd, id) => {
      if (!isSessionId(id)) return errAsync({ kind: "invalid-id", id });
      const k = key(cwd, id);
      disk.saved.delete(k);
      disk.versions.set(k, (disk.versions.get(k) ?? 0) + 1);
      disk.holders.delete(k);
      seen.delete(k);
      return okAsync(undefined);
    },
    load: (cwd, id) => {
      if (!isSessionId(id)) return errAsync({ kind: "invalid-id", id });
      const k = key(cwd, id);
      const session = disk.saved.get(k);
      if (session === undefined) return errAsync({ kind: "not-found", id });
      const refused = take(k, id);
      if (refused !== undefined) return errAsync(refused);
      seen.set(k, disk.versions.get(k) ?? 0);
      return okAsync(structuredClone(session));
    },
    hold: (cwd, id) => {
      if (!isSessionId(id)) return errAsync({ kind: "invalid-id", id });
      const k = key(cwd, id);
      const refused = take(k, id) ?? conflicted(k, id);
      return refused === undefined ? okAsync(undefined) : errAsync(refused);
    },
    release: (cwd, id) => {
      if (!isSessionId(id)) return errAsync({ kind: "invalid-id", id });
      const k = key(cwd, id);
      if (disk.holders.get(k) === pid) disk.holders.delete(k);
      seen.delete(k);
      return okAsync(undefined);
    },
  };
};

/** An empty in-memory SessionStore: the first process over a fresh set of sessions. */
export const inMemorySessionStore = (): InMemorySessionStore =>
  processOn({ saved: new Map(), versions: new Map(), holders: new Map(), alive: new Set(), failure: undefined, lastPid: 0 });
