/**
 * The file operations of the session store: the sessions dir (created 0700, never a symlink), atomic
 * writes (temp file, fsync, rename, fsync of the dir), reads of regular files only, and the identity
 * of a file as this process last saw it (to notice another writer).
 */
import { randomBytes } from "node:crypto";
import { lstatSync } from "node:fs";
import { open, rename, unlink, writeFile, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { errorCode, reasonOf } from "../errno.js";
import { SAFE_READ_FLAGS } from "../files/safe-read-flags.js";
import { makeDirectories } from "../files/make-directories.js";

/** Errors of an fsync on a directory that only mean the platform or filesystem cannot do it. */
const UNSUPPORTED_DIR_SYNC = new Set(["EINVAL", "ENOTSUP", "EISDIR", "EPERM", "EACCES", "EBADF"]);

/**
 * Whether the sessions dir exists; refuses a symlink or a non-directory in its place, and (given the
 * session's `cwd`, when the dir is inside it) a symlink on the way from the cwd (`<cwd>/.mm -> /elsewhere`
 * would send every session file there). A few `lstat`s, before every write.
 */
export const checkSessionsDir = async (dir: string, cwd?: string): Promise<Result<boolean, string>> => {
  if (cwd !== undefined && dir.startsWith(cwd.endsWith("/") ? cwd : `${cwd}/`)) {
    const parts = dir
      .slice(cwd.length)
      .split("/")
      .filter((part) => part !== "");
    let at = cwd;
    for (const part of parts.slice(0, -1)) {
      at = `${at.endsWith("/") ? at : `${at}/`}${part}`;
      try {
        if (lstatSync(at).isSymbolicLink()) return err(`sessions dir is under a symlink: ${at}`);
      } catch {
        break;
      }
    }
  }
  try {
    const info = lstatSync(dir);
    if (info.isSymbolicLink()) return err(`sessions dir is a symlink: ${dir}`);
    if (!info.isDirectory()) return err(`sessions dir is not a directory: ${dir}`);
    return ok(true);
  } catch (error) {
    const code = errorCode(error);
    return code === "ENOENT" || code === "ENOTDIR" ? ok(false) : err(`cannot use sessions dir ${dir}: ${reasonOf(error)}`);
  }
};

/**
 * What mm writes as `.gitignore` in a sessions dir it makes: everything in it (sessions hold whole
 * conversations, command outputs and the undo data) stays out of a commit, this file included.
 */
export const SESSIONS_GITIGNORE = "# Written by mm: sessions and undo data are never committed by accident.\n*\n";

/**
 * Creates the sessions dir 0700 (its missing parents with the default mode) unless it exists, with a
 * `.gitignore` of {@link SESSIONS_GITIGNORE} in it (exclusive create: never through a link, never over
 * a file; one that cannot be written is no failure).
 */
export const prepareSessionsDir = async (dir: string, cwd?: string): Promise<Result<void, string>> => {
  const exists = await checkSessionsDir(dir, cwd);
  if (exists.isErr() || exists.value) return exists.map(() => undefined);
  try {
    await makeDirectories(dir, 0o700);
  } catch (error) {
    if (errorCode(error) !== "EEXIST") return err(`cannot create sessions dir ${dir}: ${reasonOf(error)}`);
  }
  const created = await checkSessionsDir(dir);
  if (created.isOk() && created.value) await writeFile(join(dir, ".gitignore"), SESSIONS_GITIGNORE, { flag: "wx", mode: 0o600 }).catch(() => undefined);
  return created.andThen((made) => (made ? ok(undefined) : err(`cannot create sessions dir ${dir}`)));
};

/** fsyncs a directory so a rename or a new entry in it survives a power loss (where the platform can). */
export const syncDir = async (dir: string): Promise<Result<void, string>> => {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
    return ok(undefined);
  } catch (error) {
    const code = errorCode(error);
    return code !== undefined && UNSUPPORTED_DIR_SYNC.has(code) ? ok(undefined) : err(`cannot sync ${dir}: ${reasonOf(error)}`);
  } finally {
    await handle?.close().catch(() => undefined);
  }
};

/** Writes `data` to `target` through a temp file in the same dir (created exclusively, 0600), fsynced, renamed over it; then the dir is fsynced. */
export const writeAtomically = async (target: string, data: string | Uint8Array): Promise<Result<void, string>> => {
  const dir = dirname(target);
  const temp = join(dir, `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  let handle: FileHandle | undefined;
  let created = false;
  try {
    handle = await open(temp, "wx", 0o600);
    created = true;
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    if (created) await unlink(temp).catch(() => undefined);
    return err(`cannot write ${target}: ${reasonOf(error)}`);
  }
  return syncDir(dir);
};

/**
 * A regular file's bytes, never through a symlink nor blocking on a FIFO; undefined when it does not
 * exist; refused unread when larger than `maxBytes`. `what` names it in the error.
 */
export const readRegularBytes = async (path: string, what: string, maxBytes = Number.POSITIVE_INFINITY): Promise<Result<Buffer | undefined, string>> => {
  let handle: FileHandle | undefined;
  try {
    if (lstatSync(path).isSymbolicLink()) return err(`${what} is a symlink: ${path}`);
    handle = await open(path, SAFE_READ_FLAGS);
    const info = await handle.stat();
    if (!info.isFile()) return err(`${what} is not a regular file: ${path}`);
    if (info.size > maxBytes) return err(`${what} is larger than ${Math.round(maxBytes / 1048576)} MiB, more than mm writes: ${path}`);
    return ok(await handle.readFile());
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT") return ok(undefined);
    if (code === "ELOOP") return err(`${what} is a symlink: ${path}`);
    return err(`cannot read ${path}: ${reasonOf(error)}`);
  } finally {
    await handle?.close().catch(() => undefined);
  }
};

/**
 * A regular file's text (UTF-8), as readRegularBytes reads it. A Buffer then its toString: in a fresh
 * process, faster than Node's own UTF-8 read. Not as Latin-1 when the file is ASCII (as mm writes it):
 * Node makes an external string of that, which every later model step of the session pays for when it
 * sends the history.
 */
export const readRegularFile = async (path: string, what: string, maxBytes = Number.POSITIVE_INFINITY): Promise<Result<string | undefined, string>> =>
  (await readRegularBytes(path, what, maxBytes)).map((bytes) => bytes?.toString("utf8"));

/** What identifies a version of a file: a rewrite (new inode) or an append (new size) changes it. */
export type FileStamp = { readonly ino: number; readonly size: number; readonly mtimeMs: number } | "absent";

/** The file's stamp now (one `lstat`, made synchronously: it is on every save's path). */
export const stampFile = async (path: string): Promise<Result<FileStamp, string>> => {
  try {
    const info = lstatSync(path);
    return ok({ ino: info.ino, size: info.size, mtimeMs: info.mtimeMs });
  } catch (error) {
    return errorCode(error) === "ENOENT" ? ok("absent") : err(`cannot stat ${path}: ${reasonOf(error)}`);
  }
};

/** Whether two stamps name the same version of a file. */
export const sameStamp = (a: FileStamp, b: FileStamp): boolean =>
  a === "absent" || b === "absent" ? a === b : a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
