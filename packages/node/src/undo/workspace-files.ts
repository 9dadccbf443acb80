/**
 * The workspace side of `/undo` on the local disk: a file as it is now, never following its last
 * component nor blocking on a FIFO, and putting one back. A restore writes a temp file beside the
 * target (created exclusively) and renames it over the path, so what is at the path is replaced, a
 * symbolic link included, and nothing is ever written through one; a directory on the way that
 * resolves elsewhere (a link planted since) is refused. The file gets the mode it had before the
 * turn when that was seen (permission bits only: no setuid, setgid or sticky bit is ever set), else
 * keeps the mode of the file it replaces, else a new file's.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { lstat, open, realpath, rename, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { sizeText, type FileNow, type UndoStore } from "@mm/core";
import { err, ok, ResultAsync, type Result } from "neverthrow";
import { SAFE_READ_FLAGS } from "../files/safe-read-flags.js";
import { errorCode, reasonOf } from "../errno.js";
import { makeDirectories } from "../files/make-directories.js";

/** What a restore may set of a mode: read, write and execute for user, group and others. */
const PERMISSION_BITS = 0o777;

type Kind = { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean };

const whatIs = (info: Kind): string =>
  info.isSymbolicLink() ? "a symbolic link is there now" : info.isDirectory() ? "a directory is there now" : "not a regular file";

/** What `path` holds now (see the module comment). */
export const readNow = async (path: string, maxBytes: number): Promise<FileNow> => {
  let handle: FileHandle | undefined;
  try {
    const info = await lstat(path);
    if (!info.isFile()) return { kind: "unreadable", reason: whatIs(info) };
    if (info.size > maxBytes) return { kind: "unreadable", reason: `larger than ${sizeText(maxBytes)}, the most /undo keeps of a file` };
    handle = await open(path, SAFE_READ_FLAGS);
    const opened = await handle.stat();
    if (!opened.isFile()) return { kind: "unreadable", reason: "not a regular file" };
    const bytes = await handle.readFile();
    return bytes.length > maxBytes
      ? { kind: "unreadable", reason: `larger than ${sizeText(maxBytes)}, the most /undo keeps of a file` }
      : { kind: "bytes", bytes, mode: opened.mode & PERMISSION_BITS, ...(opened.birthtimeMs > 0 ? { born: opened.birthtimeMs } : {}) };
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "absent" };
    if (code === "ELOOP") return { kind: "unreadable", reason: "a symbolic link is there now" };
    return { kind: "unreadable", reason: `cannot read it: ${reasonOf(error)}` };
  } finally {
    await handle?.close().catch(() => undefined);
  }
};

/** Refuses a directory that resolves elsewhere than its own path (a link on the way). */
const plainDirectory = async (dir: string): Promise<Result<void, string>> => {
  const real = await realpath(dir).catch(() => undefined);
  if (real === undefined) return err(`its directory ${dir} cannot be reached`);
  return real === dir ? ok(undefined) : err(`its directory ${dir} now leads elsewhere (${real}) through a symbolic link; not written through`);
};

const existing = async (path: string): Promise<Stats | undefined> => lstat(path).catch(() => undefined);

const remove = async (path: string): Promise<Result<void, string>> => {
  const info = await existing(path);
  if (info === undefined) return ok(undefined);
  if (info.isDirectory()) return err("a directory is there now");
  const dir = await plainDirectory(dirname(path));
  if (dir.isErr()) return dir;
  await unlink(path);
  return ok(undefined);
};

/** The deepest directory of `dir`'s path that exists now (`dir` itself when it does). */
const existingAncestor = async (dir: string): Promise<string> => {
  let at = dir;
  while ((await existing(at)) === undefined && dirname(at) !== at) at = dirname(at);
  return at;
};

const put = async (path: string, bytes: Uint8Array, before: number | undefined): Promise<Result<void, string>> => {
  const dir = dirname(path);
  // Missing directories are made only under one that is itself (mkdir would follow a link on the way).
  const base = await plainDirectory(await existingAncestor(dir));
  if (base.isErr()) return base;
  await makeDirectories(dir);
  const plain = await plainDirectory(dir);
  if (plain.isErr()) return plain;
  const info = await existing(path);
  if (info?.isDirectory() === true) return err("a directory is there now");
  const mode = before !== undefined ? before & PERMISSION_BITS : info?.isFile() === true ? info.mode & PERMISSION_BITS : undefined;
  const temp = join(dir, `.${basename(path)}.mm-undo-${randomBytes(6).toString("hex")}.tmp`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, "wx", 0o666);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(bytes);
    await handle.datasync();
    await handle.close();
    handle = undefined;
    await rename(temp, path);
    return ok(undefined);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
};

/** Puts `bytes` at `path` (with `mode` when given), or removes the file there (null); the reason when it could not. */
export const restoreFile = async (path: string, bytes: Uint8Array | null, mode?: number): Promise<Result<void, string>> => {
  try {
    return bytes === null ? await remove(path) : await put(path, bytes, mode);
  } catch (error) {
    return err(`cannot ${bytes === null ? "remove" : "write"} it: ${reasonOf(error)}`);
  }
};

/** The SHA-256 of bytes in lowercase hex: what names a blob. */
export const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** The workspace side of an UndoStore on the local disk, and the hash that names blobs. */
export const localWorkspace: Pick<UndoStore, "read" | "restore" | "hash"> = {
  read: (path, maxBytes) => readNow(path, maxBytes),
  hash: sha256,
  restore: (path, bytes, mode) => new ResultAsync(restoreFile(path, bytes, mode).catch((error: unknown) => err(reasonOf(error)))),
};
