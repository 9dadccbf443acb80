/**
 * The lock beside the remembered rules file (`permissions.json.lock`): held while one change is
 * read, applied and written, so two mm processes never lose each other's change. Created with
 * O_EXCL (which never follows a link at the path), 0600, holding the holder's pid. A lock older than
 * a few seconds, or whose pid is gone, or that is no regular file (a planted link or FIFO) is moved
 * aside and taken over; waiting is bounded, then the change fails with a one-line reason.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { link, lstat, open, rename, unlink } from "node:fs/promises";
import { err, ok, type Result } from "neverthrow";
import { errorCode, reasonOf } from "../errno.js";
import { SAFE_READ_FLAGS } from "../files/safe-read-flags.js";

/** A lock older than this is a crashed or stuck holder's (a change takes milliseconds). */
const STALE_MS = 5000;
/** How long a change waits for another process's before it fails. */
const WAIT_MS = 2000;

type Held = { readonly path: string; readonly ino: number };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM";
  }
};

/** The pid a lock names, read without following a link nor blocking; undefined when unreadable. */
const pidIn = async (path: string): Promise<number | undefined> => {
  const handle = await open(path, SAFE_READ_FLAGS).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const buffer = Buffer.alloc(64);
    const { bytesRead } = await handle.read(buffer, 0, 64, 0);
    const pid = Number.parseInt(buffer.toString("utf8", 0, bytesRead), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
};

/** Why the lock at `path` (inode `ino`) may be taken over, or undefined while its holder may still be at work. */
const staleness = async (path: string): Promise<{ readonly ino: number; readonly holder?: number } | "gone" | "dir" | undefined> => {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return "gone";
  if (info.isDirectory()) return "dir";
  if (!info.isFile()) return { ino: info.ino };
  const pid = await pidIn(path);
  if (Date.now() - info.mtimeMs > STALE_MS) return { ino: info.ino };
  if (pid !== undefined && pid !== process.pid && !alive(pid)) return { ino: info.ino };
  // A lock just created may not hold its pid yet: only its age can make it stale.
  return undefined;
};

/** Moves the stale lock (inode `ino`) aside; puts back a fresh one moved by mistake. */
const takeOver = async (path: string, ino: number): Promise<void> => {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.stale`;
  try {
    await rename(path, aside);
  } catch {
    return;
  }
  const moved = await lstat(aside).catch(() => undefined);
  if (moved !== undefined && moved.ino !== ino) {
    // Another process took the stale one over first and holds this one: give it back, never over a lock made since.
    await link(aside, path).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
};

const acquire = async (path: string): Promise<Result<Held, string>> => {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
        return ok({ path, ino: (await handle.stat()).ino });
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (errorCode(error) !== "EEXIST") return err(`cannot lock ${path}: ${reasonOf(error)}`);
    }
    const stale = await staleness(path);
    if (stale === "dir") return err(`cannot lock ${path}: a directory is in its place`);
    if (stale !== undefined && stale !== "gone") {
      await takeOver(path, stale.ino);
      continue;
    }
    if (stale === undefined && Date.now() > until) {
      const pid = await pidIn(path);
      return err(`${path} is held by another mm process${pid !== undefined ? ` (pid ${pid})` : ""} for over ${WAIT_MS / 1000}s; the change was not saved`);
    }
    await sleep(5 + Math.floor(Math.random() * 20));
  }
};

const release = async (held: Held): Promise<void> => {
  const info = await lstat(held.path).catch(() => undefined);
  if (info?.ino === held.ino) await unlink(held.path).catch(() => undefined);
};

/** Runs `work` holding the lock at `path`; an error when the lock cannot be had in time. */
export const withRulesFileLock = async <T>(path: string, work: () => Promise<Result<T, string>>): Promise<Result<T, string>> => {
  const held = await acquire(path);
  if (held.isErr()) return err(held.error);
  try {
    return await work();
  } finally {
    await release(held.value);
  }
};
