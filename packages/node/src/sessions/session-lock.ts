/**
 * The per-session lock file `<id>.lock`: one JSON line naming the holding process (process-identity.ts).
 * Created whole and exclusively (written to a temp file, then `link`ed into place, which fails if a
 * lock exists); a lock whose holder is dead is replaced (`rename` over it). Ours is recognised by its
 * inode, checked before every write.
 */
import { randomBytes } from "node:crypto";
import { lstatSync, readFileSync } from "node:fs";
import { link, lstat, open, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { errorCode, reasonOf } from "../errno.js";
import { sameOwner, type LockOwner } from "./process-identity.js";
import { isRecord } from "./json-session-document.js";

/** A lock this process holds: the lock file's identity and what it says. */
export type HeldLock = { readonly dev: number; readonly ino: number; readonly text: string };

/** Why a lock could not be taken. */
export type LockProblem = { readonly kind: "busy"; readonly holder: LockOwner } | { readonly kind: "io"; readonly message: string };

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

/**
 * Whether the lock file at `path` is still the one this process took: the same file, still naming
 * this process (a file number alone could be a new lock reusing a removed one's inode). Checked
 * before every write, so made with synchronous calls (a `lstat` and a read of a few bytes).
 */
export const stillHeld = async (path: string, held: HeldLock): Promise<boolean> => {
  try {
    const now = lstatSync(path);
    return now.isFile() && now.dev === held.dev && now.ino === held.ino && readFileSync(path, "utf8") === held.text;
  } catch {
    return false;
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
        const before = await stampOf(path);
        const text = await readFile(path, "utf8").catch((e: unknown) => (errorCode(e) === "ENOENT" ? undefined : Promise.reject(e)));
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
