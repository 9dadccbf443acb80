/**
 * The per-session lock file `<id>.lock`: one JSON line naming the holding process (process-identity.ts).
 * Created whole and exclusively (written to a temp file, then `link`ed into place, which fails if a
 * lock exists); a lock whose holder is dead is replaced (`rename` over it). Ours is recognised by its
 * inode, checked before every write.
 *
 * Something else at the lock's path (a symlink, a FIFO, a socket: planted, or left by a crash of
 * something else) is never read, written through nor waited on, and the session is never used without
 * a lock: the thing is replaced by a lock of ours in one `rename` (which replaces the entry itself,
 * never a link's target). A directory there cannot be replaced so: the lock is refused, naming it.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { link, lstat, open, readdir, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { errorCode, reasonOf } from "../errno.js";
import { sameOwner, type LockOwner } from "./process-identity.js";
import { isRecord } from "./document-validation.js";

/** A lock this process holds: the lock file's identity and what it says; `replaced` names what was at its path before (a symlink, a FIFO…). */
export type HeldLock = { readonly dev: number; readonly ino: number; readonly text: string; readonly replaced?: string };

/**
 * Why a lock could not be taken: `busy` (a live holder), `unusable` (something at the lock's path
 * that cannot be replaced: the session must not be used), `io` (the disk refused).
 */
export type LockProblem =
  | { readonly kind: "busy"; readonly holder: LockOwner }
  | { readonly kind: "unusable"; readonly message: string }
  | { readonly kind: "io"; readonly message: string };

/** Whose lock it is and how to tell if they still run. */
export type LockParty = { readonly self: LockOwner; readonly alive: (owner: LockOwner) => boolean };

const ownerOf = (text: string): LockOwner | undefined => {
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value)) return undefined;
    const { pid, started, boot, host } = value;
    if (typeof pid !== "number" || typeof host !== "string") return undefined;
    return { pid, host, ...(typeof started === "string" ? { started } : {}), ...(typeof boot === "string" ? { boot } : {}) };
  } catch {
    return undefined;
  }
};

type Stamp = { readonly dev: number; readonly ino: number };

const stampOf = async (path: string): Promise<Stamp | undefined> => {
  try {
    const info = await lstat(path);
    return info.isFile() ? { dev: info.dev, ino: info.ino } : undefined;
  } catch {
    return undefined;
  }
};

const textOf = (owner: LockOwner): string => `${JSON.stringify(owner)}\n`;

/** A lock is a few bytes: more is not a lock. */
const MAX_LOCK_BYTES = 4096;

/** What sits at a lock's path when it is no regular file (a FIFO, a symlink, a directory…); undefined when it is one, or nothing is there. */
const notALock = async (path: string): Promise<string | undefined> => {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined || info.isFile()) return undefined;
  return info.isSymbolicLink() ? "a symlink" : info.isFIFO() ? "a FIFO" : info.isDirectory() ? "a directory" : "not a regular file";
};

/** A lock's text, read without following a link nor blocking on a FIFO, and bounded; undefined when it is gone. */
const readLock = async (path: string): Promise<string | undefined> => {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_LOCK_BYTES, 0);
    return buffer.toString("utf8", 0, bytesRead);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  } finally {
    await handle?.close();
  }
};

/**
 * Whether the lock file at `path` is still the one this process took: the same file, still naming
 * this process (a file number alone could be a new lock reusing a removed one's inode). Checked
 * before every write, so made with synchronous calls (an open, a `fstat` and a read of a few bytes).
 */
export const stillHeld = async (path: string, held: HeldLock): Promise<boolean> => {
  let fd: number | undefined;
  try {
    // Opened without following a link and without waiting on a FIFO swapped in after a check; then
    // the file opened is the one compared.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    const now = fstatSync(fd);
    return now.isFile() && now.dev === held.dev && now.ino === held.ino && readFileSync(fd, "utf8") === held.text;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
};

const writeTemp = async (path: string, owner: LockOwner): Promise<string> => {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(textOf(owner), "utf8");
  } finally {
    await handle.close();
  }
  return temp;
};

/**
 * Takes the lock at `path` for `party.self`: free, already ours, or left by a dead process. A live
 * holder's lock is never touched. Two processes replacing the same dead holder's lock in the same
 * instant could both believe they hold it; each checks the lock before every write, so the loser
 * finds out at its next write.
 */
export const takeLock = async (path: string, party: LockParty): Promise<Result<HeldLock, LockProblem>> => {
  let temp: string | undefined;
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      temp ??= await writeTemp(path, party.self);
      try {
        await link(temp, path);
      } catch (error) {
        if (errorCode(error) !== "EEXIST") throw error;
        const odd = await notALock(path);
        if (odd === "a directory") return err({ kind: "unusable", message: `the lock ${path} is a directory, not a lock file: remove it` });
        if (odd !== undefined) {
          // Replaced whole: the link itself (never its target), the FIFO itself (never opened).
          await rename(temp, path);
          temp = undefined;
          const taken = await stampOf(path);
          const text = taken === undefined ? undefined : await readLock(path);
          if (taken !== undefined && text === textOf(party.self)) return ok({ ...taken, text, replaced: odd });
          continue;
        }
        const before = await stampOf(path);
        const text = await readLock(path);
        if (before === undefined || text === undefined) continue;
        const holder = ownerOf(text);
        if (holder !== undefined && sameOwner(holder, party.self)) return ok({ ...before, text });
        if (holder !== undefined && party.alive(holder)) return err({ kind: "busy", holder });
        const still = await stampOf(path);
        if (still === undefined || still.ino !== before.ino) continue;
        await rename(temp, path);
        temp = undefined;
      }
      const taken = await stampOf(path);
      if (taken !== undefined) return ok({ ...taken, text: textOf(party.self) });
    }
    return err({ kind: "io", message: `cannot take the lock ${path}: it keeps changing` });
  } catch (error) {
    return err({ kind: "io", message: `cannot take the lock ${path}: ${reasonOf(error)}` });
  } finally {
    if (temp !== undefined) await unlink(temp).catch(() => undefined);
  }
};

/** Removes the lock at `path` if it is still the one this process took. */
export const dropLock = async (path: string, held: HeldLock): Promise<void> => {
  if (await stillHeld(path, held)) await unlink(path).catch(() => undefined);
};

/**
 * Removes from `dir` the `<id>.lock` files (`id` passing `isId`) whose holder is gone: what a killed
 * process leaves behind. Only a regular file that parses as a lock and names a process on this
 * machine that no longer runs; never this process's, a live holder's, another machine's, nor
 * anything that is no regular file (a link, a FIFO: left for {@link takeLock}, which names it). The
 * file is removed only while it is still the one judged (same inode, checked again just before the
 * `unlink`); a process that took the lock in between finds it gone at its next write and takes it
 * again, as for a dead holder's lock replaced twice. The paths removed; never throws.
 */
export const sweepDeadLocks = async (dir: string, party: LockParty, isId: (id: string) => boolean): Promise<readonly string[]> => {
  const names = await readdir(dir).catch(() => [] as string[]);
  const locks = names.filter((name) => name.endsWith(".lock") && isId(name.slice(0, -5))).map((name) => join(dir, name));
  const removed = await Promise.all(
    locks.map(async (path): Promise<string | undefined> => {
      try {
        const before = await stampOf(path);
        if (before === undefined) return undefined;
        const text = await readLock(path);
        const holder = text === undefined ? undefined : ownerOf(text);
        if (holder === undefined || sameOwner(holder, party.self) || party.alive(holder)) return undefined;
        const still = await stampOf(path);
        if (still === undefined || still.dev !== before.dev || still.ino !== before.ino) return undefined;
        await unlink(path);
        return path;
      } catch {
        return undefined;
      }
    }),
  );
  return removed.filter((path): path is string => path !== undefined);
};
