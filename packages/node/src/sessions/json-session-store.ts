/**
 * jsonSessionStore: the SessionStore port on local files, `<cwd>/<dir>/<id>.json` (the document),
 * `<id>.journal` (messages added since, appended as the turn goes) and `<id>.lock` (the process
 * holding the session). Layout and recovery rules: docs/session-file.md.
 */
import { basename, join, resolve } from "node:path";
import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import { isSessionId, type SessionStore, type StoreError, type StoredSession } from "@mm/core";
import { reasonOf } from "../errno.js";
import { decodeSessionFile } from "./json-session-document.js";
import { hasPowerSettings, provenSession } from "./settings-signature.js";
import { processUndoKey, type UndoKeyLoader } from "../undo/undo-key.js";
import { currentOwner, describeOwner, ownerAlive, type LockOwner } from "./process-identity.js";
import { checkSessionsDir, prepareSessionsDir, readRegularFile, sameStamp, stampFile } from "./session-files.js";
import { readJournal } from "./session-journal.js";
import { dropLock, stillHeld, sweepDeadLocks, takeLock, type HeldLock, type LockParty } from "./session-lock.js";
import { appendToJournal, type Flush } from "./session-journal-file.js";
import { encodeRewrite, planWrite, rewriteDocument, type Kept, type SessionPaths } from "./session-writes.js";
import { repairJournal } from "./session-repair.js";
import { listSessionFiles, removeSessionFile } from "./json-session-listing.js";
import { unlink } from "node:fs/promises";

/** Options of {@link jsonSessionStore}. */
export type JsonSessionStoreOptions = {
  /** `sessions.dir`: a relative one is taken against each session's cwd, an absolute one as is. */
  readonly dir: string;
  /** The process its lock files name; this process by default (tests pose as others). */
  readonly owner?: LockOwner;
  /** Whether a lock's holder still runs; by default from /proc (pid, start time, boot id) or `kill(pid, 0)`. */
  readonly alive?: (owner: LockOwner) => boolean;
  /** A line for the operator's log: a lock that cannot be used (a FIFO or a link in its place), once per session. */
  readonly warn?: (line: string) => void;
  /**
   * The user's key (`undoKeyFile`, the one that signs undo logs): it signs a session's mode and model,
   * which a load honours only when the signature checks. One of this process only when absent.
   */
  readonly key?: UndoKeyLoader;
  /** Applied to every session before it is written and as it is loaded: the secrets mm holds replaced (boundary/secrets.ts `sessionRedactor`). */
  readonly redact?: (session: StoredSession) => StoredSession;
};

/** What the store knows of one session: its files, the lock it holds, what it last wrote or read. */
type Slot = {
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
const flushOf = (session: StoredSession): Flush => {
  const last = session.history[session.history.length - 1];
  return last !== undefined && last.role === "assistant" && last.toolCalls.length > 0 ? "now" : "soon";
};

/**
 * Waits for the slot's flush still running, if any: the store's operations on a session start once the
 * previous append is on the disk. A flush that failed leaves the files `broken`: the next save rewrites
 * the document whole (and says so if it cannot).
 */
const flushed = async (slot: Slot): Promise<void> => {
  const flushing = slot.flushing;
  if (flushing === undefined) return;
  slot.flushing = undefined;
  if ((await flushing) !== undefined && slot.kept !== undefined) slot.kept = { ...slot.kept, broken: true };
};

const io = (id: string, message: string): StoreError => ({ kind: "io", id, message });

/** One task at a time per session: each starts once the previous one of that session has settled. */
const perKeyQueue = () => {
  const tails = new Map<string, Promise<void>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(task);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
};

/** Failures of unexpected kinds (never expected from the steps above) still end as an `io` value. */
const settled = <T>(id: string, promise: Promise<Result<T, StoreError>>): ResultAsync<T, StoreError> =>
  new ResultAsync(promise.catch((error: unknown) => err(io(id, `session store failed: ${reasonOf(error)}`))));

/** Whether the files are still as this process left them (their stamps), without reading them. */
const stampsUnchanged = async (slot: Slot, kept: Kept): Promise<Result<boolean, string>> => {
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

const CONFLICT = "the session was changed on disk by another process since this one read or wrote it";

/** The SessionStore port on local files. No method throws or rejects. */
export const jsonSessionStore = (options: JsonSessionStoreOptions): SessionStore => {
  const enqueue = perKeyQueue();
  // Who this process is, read (from /proc) when the first lock is taken, not when the store is made.
  let party: LockParty | undefined;
  const partyOf = (): LockParty => {
    if (party !== undefined) return party;
    const self = options.owner ?? currentOwner();
    return (party = { self, alive: options.alive ?? ownerAlive(self) });
  };
  const slots = new Map<string, Slot>();
  /** Locks already said to be unusable. */
  const warned = new Set<string>();
  /** Sessions dirs already cleared of the locks of processes that are gone (once per dir, and at each listing). */
  const swept = new Set<string>();
  const sweep = async (dir: string, cwd: string): Promise<void> => {
    swept.add(dir);
    // Never through a link: a sessions dir that is one (or under one) is refused by its use anyway.
    if (!(await checkSessionsDir(dir, cwd)).unwrapOr(false)) return;
    const removed = await sweepDeadLocks(dir, partyOf(), isSessionId);
    if (removed.length > 0)
      options.warn?.(
        `sessions dir ${dir}: removed ${removed.length} lock(s) left by processes that are gone: ${removed.map((path) => basename(path)).join(", ")}`,
      );
  };
  /** The lock failures that stop the session's use (something no lock at the lock's path), beside `busy`. */
  const unusable = new WeakSet<StoreError>();
  /** Whether a lock failure stops the session's use (else, a disk that refuses, it goes on: its writes fail anyway). */
  const stops = (error: StoreError): boolean => error.kind === "busy" || unusable.has(error);
  const keyLoader = options.key ?? processUndoKey();
  let keyWarned = false;
  /** The user's key, or undefined (said once in the log) when it cannot be had: the settings are then written unsigned. */
  const keyOf = async (): Promise<Uint8Array | undefined> => {
    const loaded = await keyLoader();
    if (loaded.isOk()) return loaded.value;
    if (!keyWarned) options.warn?.(`${loaded.error}: sessions are saved without proof of their mode and model, and load in "ask"`);
    keyWarned = true;
    return undefined;
  };
  /** The key when `session` has something to sign (a mode other than ask, a model, an effort), else undefined without reading it. */
  const signerFor = (session: StoredSession): Promise<Uint8Array | undefined> => (hasPowerSettings(session) ? keyOf() : Promise.resolve(undefined));

  const slotOf = (cwd: string, id: string): Slot => {
    const dir = resolve(cwd, options.dir);
    const document = join(dir, `${id}.json`);
    const known = slots.get(document);
    if (known !== undefined) return known;
    const slot: Slot = {
      dir,
      cwd,
      paths: { document, journal: join(dir, `${id}.journal`), lock: join(dir, `${id}.lock`) },
      lock: undefined,
      kept: undefined,
      flushing: undefined,
    };
    slots.set(document, slot);
    return slot;
  };

  /** Holds the slot's lock (keeping or taking it): `busy` for a live holder, `io` when no lock can be made (one that {@link stops} the session's use when something no lock sits in its place). */
  const lock = async (slot: Slot, id: string): Promise<Result<void, StoreError>> => {
    if (slot.lock !== undefined && (await stillHeld(slot.paths.lock, slot.lock))) return ok(undefined);
    slot.lock = undefined;
    if (!swept.has(slot.dir)) await sweep(slot.dir, slot.cwd);
    const taken = await takeLock(slot.paths.lock, partyOf());
    if (taken.isOk()) {
      const { replaced, ...held } = taken.value;
      slot.lock = held;
      if (replaced !== undefined) options.warn?.(`session ${id}: the lock ${slot.paths.lock} was ${replaced}, not a lock file: replaced by a new lock`);
      return ok(undefined);
    }
    const problem = taken.error;
    // Never used without its lock when something that is no lock holds its place.
    if (problem.kind === "unusable") {
      if (!warned.has(slot.paths.lock)) {
        warned.add(slot.paths.lock);
        options.warn?.(`session ${id}: ${problem.message}; the session is not used until then`);
      }
      const refused = io(id, `${problem.message} (the session is never used without its lock)`);
      unusable.add(refused);
      return err(refused);
    }
    if (problem.kind === "io" && !warned.has(slot.paths.lock)) {
      warned.add(slot.paths.lock);
      options.warn?.(`session ${id}: ${problem.message}; the session is used without its lock`);
    }
    return err(problem.kind === "busy" ? { kind: "busy", id, holder: describeOwner(problem.holder, partyOf().self) } : io(id, problem.message));
  };

  /**
   * How the session's files compare with what this process last wrote or read: `same`; `damaged`
   * (removed, replaced by a link or by something that is not this session, or holding what this
   * process has anyway): the next save rewrites them; or a `conflict`: they hold another version of
   * the session, written by someone else, which a save would lose.
   */
  const onDisk = async (slot: Slot, kept: Kept, id: string): Promise<Result<"same" | "damaged", StoreError>> => {
    const unchanged = await stampsUnchanged(slot, kept);
    if (unchanged.isErr()) return err(io(id, unchanged.error));
    if (unchanged.value) return ok("same");
    const found = await readSession(slot, id, false);
    if (found.isErr()) return ok("damaged");
    const theirs = found.value.session.history;
    return JSON.stringify(theirs) === JSON.stringify(kept.session.history) ? ok("damaged") : err({ kind: "conflict", id, message: CONFLICT });
  };

  const save = async (slot: Slot, session: StoredSession, whole = false): Promise<Result<void, StoreError>> => {
    const { id } = session;
    const kept = slot.kept;
    const key = await signerFor(session);
    const planned = whole ? encodeRewrite(session, key).map((rewrite) => ({ kind: "rewrite" as const, rewrite })) : planWrite(kept, session, key);
    if (planned.isErr()) return err(io(id, planned.error));
    let plan = planned.value;
    if (plan === "nothing") return ok(undefined);
    const prepared = await prepareSessionsDir(slot.dir, slot.cwd);
    if (prepared.isErr()) return err(io(id, prepared.error));
    const locked = await lock(slot, id);
    if (locked.isErr() && stops(locked.error)) return locked;
    if (kept !== undefined) {
      const state = await onDisk(slot, kept, id);
      if (state.isErr()) return err(state.error);
      if (state.value === "damaged" && plan.kind === "append") {
        const rewrite = encodeRewrite(session, key);
        if (rewrite.isErr()) return err(io(id, rewrite.error));
        plan = { kind: "rewrite", rewrite: rewrite.value };
      }
    }
    if (plan.kind === "append" && kept?.generation !== undefined) {
      const appended = await appendToJournal(slot.paths, { ...kept, generation: kept.generation }, session, plan.lines, flushOf(session));
      slot.kept = appended.kept;
      slot.flushing = appended.flushing;
      return appended.error === undefined ? ok(undefined) : err(io(id, appended.error));
    }
    if (plan.kind !== "rewrite") return err(io(id, "session store: no document to write"));
    const rewritten = await rewriteDocument(slot.paths, plan.rewrite);
    if (rewritten.isErr()) return err(io(id, rewritten.error));
    slot.kept = rewritten.value;
    return ok(undefined);
  };

  const load = async (slot: Slot, id: string): Promise<Result<StoredSession, StoreError>> => {
    const dir = await checkSessionsDir(slot.dir, slot.cwd);
    if (dir.isErr()) return err(io(id, dir.error));
    const exists = dir.value ? await stampFile(slot.paths.document) : ok("absent" as const);
    if (exists.isErr()) return err(io(id, exists.error));
    if (exists.value === "absent") return err({ kind: "not-found", id });
    const heldBefore = slot.lock !== undefined;
    const locked = await lock(slot, id);
    if (locked.isErr() && stops(locked.error)) return err(locked.error);
    const read = await readSession(slot, id, locked.isOk());
    if (read.isErr()) {
      if (!heldBefore && slot.lock !== undefined) await dropLock(slot.paths.lock, slot.lock);
      if (!heldBefore) slot.lock = undefined;
      return err(read.error);
    }
    slot.kept = read.value;
    // A file written before (or by another mm) may hold a secret: the session goes on without it, and
    // the next save, seeing it differ from what is on disk, rewrites the file without it.
    return ok(options.redact === undefined ? read.value.session : options.redact(read.value.session));
  };

  const readSession = async (slot: Slot, id: string, holding: boolean): Promise<Result<Kept, StoreError>> => {
    const stamp = await stampFile(slot.paths.document);
    const source = await readRegularFile(slot.paths.document, "session file");
    if (source.isErr()) return err(io(id, source.error));
    if (source.value === undefined || stamp.isErr() || stamp.value === "absent") return err({ kind: "not-found", id });
    const decoded = decodeSessionFile(source.value, id);
    if (decoded.isErr()) return err({ ...decoded.error, id });
    const { generation } = decoded.value;
    const unsigned = decoded.value.session;
    const session = provenSession(decoded.value, hasPowerSettings(unsigned) ? await keyOf() : undefined, slot.cwd);
    const base: Kept = { session, generation, document: stamp.value, journal: undefined, broken: false };
    const journal = await readRegularFile(slot.paths.journal, "session journal");
    if (journal.isErr()) return err(io(id, journal.error));
    if (journal.value === undefined) return ok(base);
    const reading = readJournal(journal.value, session, generation);
    if (reading.isErr()) return err({ ...reading.error, id });
    return ok(await repairJournal(slot.paths.journal, base, reading.value, holding));
  };

  const hold = async (slot: Slot, id: string): Promise<Result<void, StoreError>> => {
    const dir = await checkSessionsDir(slot.dir, slot.cwd);
    if (dir.isErr()) return err(io(id, dir.error));
    if (!dir.value) return ok(undefined);
    const locked = await lock(slot, id);
    if (locked.isErr()) return locked;
    return slot.kept === undefined ? ok(undefined) : (await onDisk(slot, slot.kept, id)).map(() => undefined);
  };

  const release = async (slot: Slot, id: string): Promise<Result<void, StoreError>> => {
    const kept = slot.kept;
    let folded: Result<void, StoreError> = ok(undefined);
    const ours = slot.lock !== undefined && (await stillHeld(slot.paths.lock, slot.lock));
    const dir = await checkSessionsDir(slot.dir, slot.cwd);
    if (dir.isErr()) folded = err(io(id, dir.error));
    else if (kept !== undefined && ours && (kept.journal !== undefined || kept.broken)) {
      const unchanged = (await onDisk(slot, kept, id)).map(() => undefined);
      const rewrite = encodeRewrite(kept.session, await signerFor(kept.session));
      folded = unchanged.isErr()
        ? unchanged
        : rewrite.isErr()
          ? err(io(id, rewrite.error))
          : (await rewriteDocument(slot.paths, rewrite.value)).map(() => undefined).mapErr((e) => io(id, e));
    }
    if (slot.lock !== undefined && dir.isOk()) await dropLock(slot.paths.lock, slot.lock);
    slots.delete(slot.paths.document);
    return folded;
  };

  /** Removes the session's files, unless another live process holds it. */
  const remove = async (slot: Slot, id: string): Promise<Result<void, StoreError>> => {
    const locked = await lock(slot, id);
    if (locked.isErr() && stops(locked.error)) return locked;
    const removed = await removeSessionFile(slot.dir, id);
    await unlink(slot.paths.journal).catch(() => undefined);
    if (slot.lock !== undefined) await dropLock(slot.paths.lock, slot.lock);
    slots.delete(slot.paths.document);
    return removed;
  };

  const run = <T>(cwd: string, id: string, task: (slot: Slot) => Promise<Result<T, StoreError>>): ResultAsync<T, StoreError> => {
    if (!isSessionId(id)) return errAsync({ kind: "invalid-id", id });
    const slot = slotOf(cwd, id);
    return settled(
      id,
      enqueue(slot.paths.document, async () => {
        const current = slotOf(cwd, id);
        await flushed(current);
        return task(current);
      }),
    );
  };

  return {
    save: (asked) => {
      const session = options.redact === undefined ? asked : options.redact(asked);
      return run(session.cwd, session.id, (slot) => save(slot, session));
    },
    load: (cwd, id) => run(cwd, id, (slot) => load(slot, id)),
    hold: (cwd, id) => run(cwd, id, (slot) => hold(slot, id)),
    release: (cwd, id) => run(cwd, id, (slot) => release(slot, id)),
    // The document rewritten whole from what this process last wrote, when a journal is beside it.
    fold: (cwd, id) => run(cwd, id, async (slot) => (slot.kept?.journal === undefined ? ok(undefined) : save(slot, slot.kept.session, true))),
    list: (cwd) =>
      settled(
        "",
        sweep(resolve(cwd, options.dir), cwd).then(() => listSessionFiles(resolve(cwd, options.dir), cwd)),
      ),
    remove: (cwd, id) => run(cwd, id, (slot) => remove(slot, id)),
  };
};
