/**
 * How jsonSessionStore holds a session's lock: taken (or kept) before a session is used, the sessions
 * dir first cleared of the locks of processes that are gone, and what stops the session's use said
 * once in the log.
 */
import { basename } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { isSessionId, type StoreError } from "@mm/core";
import { currentOwner, describeOwner, ownerAlive, type LockOwner } from "./process-identity.js";
import { checkSessionsDir } from "./session-files.js";
import { stillHeld, sweepDeadLocks, takeLock, type LockParty } from "./session-lock.js";
import type { Slot } from "./session-slot.js";
import { io } from "./store-errors.js";

/** What the locks need of the store's options (JsonSessionStoreOptions). */
type LockingOptions = {
  readonly owner?: LockOwner;
  readonly alive?: (owner: LockOwner) => boolean;
  readonly warn?: (line: string) => void;
};

/** The store's locking: `lock` a slot, `sweep` a sessions dir, and whether a lock failure `stops` the session's use. */
export const sessionLocking = (options: LockingOptions) => {
  // Who this process is, read (from /proc) when the first lock is taken, not when the store is made.
  let party: LockParty | undefined;
  const partyOf = (): LockParty => {
    if (party !== undefined) return party;
    const self = options.owner ?? currentOwner();
    return (party = { self, alive: options.alive ?? ownerAlive(self) });
  };
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

  return { sweep, lock, stops };
};
