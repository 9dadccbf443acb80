/**
 * jsonSessionStore: the SessionStore port on local files, `<cwd>/<dir>/<id>.json` (the document),
 * `<id>.journal` (messages added since, appended as the turn goes) and `<id>.lock` (the process
 * holding the session). Layout and recovery rules: docs/session-file.md.
 */
import { join, resolve } from "node:path";
import { err, errAsync, ok, type Result, type ResultAsync } from "neverthrow";
import { isSessionId, type SessionStore, type StoreError, type StoredSession } from "@mm/core";
import { decodeSessionFile } from "./json-session-document.js";
import { provenSession, hasPowerSettings } from "./settings-signature.js";
import type { UndoKeyLoader } from "../undo/undo-key.js";
import type { LockOwner } from "./process-identity.js";
import { checkSessionsDir, prepareSessionsDir, readRegularFile, stampFile } from "./session-files.js";
import { readJournal } from "./session-journal.js";
import { dropLock, stillHeld } from "./session-lock.js";
import { appendToJournal } from "./session-journal-file.js";
import { encodeRewrite, planWrite, rewriteDocument, type Kept } from "./session-writes.js";
import { repairJournal } from "./session-repair.js";
import { listSessionFiles, removeSessionFile } from "./json-session-listing.js";
import { unlink } from "node:fs/promises";
import { perKeyQueue } from "./per-key-queue.js";
import { sessionLocking } from "./session-locking.js";
import { sessionSigner } from "./session-signer.js";
import { flushed, flushOf, type Slot, stampsUnchanged } from "./session-slot.js";
import { io, settled } from "./store-errors.js";

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

const CONFLICT = "the session was changed on disk by another process since this one read or wrote it";

/** The SessionStore port on local files. No method throws or rejects. */
export const jsonSessionStore = (options: JsonSessionStoreOptions): SessionStore => {
  const enqueue = perKeyQueue();
  const slots = new Map<string, Slot>();
  const { sweep, lock, stops } = sessionLocking(options);
  const { keyOf, signerFor } = sessionSigner(options.key, options.warn);

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
