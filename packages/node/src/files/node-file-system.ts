/**
 * nodeFileSystem: the FileSystem port on node:fs. Reads refuse directories, binary content and files
 * over a size limit; writes create missing parent directories. Failures are FsError values.
 *
 * Only regular files are read or written. A FIFO without a writer, a terminal, `/dev/ptmx` and the
 * like block a read or an open forever, and a thread-pool thread stuck so cannot be cancelled; it
 * even keeps `process.exit` from finishing. So anything else is refused before it is opened, files
 * are opened non-blocking (a path swapped for a FIFO between the check and the open still cannot
 * block), and the opened file is checked again.
 *
 * A path whose last component is a symbolic link is opened at the link's target, resolved first, and
 * the open itself follows no link (`O_NOFOLLOW`): a link swapped in between fails instead of leading
 * elsewhere. A write through a link to nothing is refused: it would create the link's target, wherever
 * that is (a command could have planted `notes.txt -> ~/.bash_profile`).
 */
import { constants, type Stats } from "node:fs";
import { lstat, open, readlink, realpath, stat as fsStat, type FileHandle } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { err, ok, ResultAsync, type Result } from "neverthrow";
import type { FileStat, FileSystem, FsError } from "../core-types.js";
import { fsErrorOf } from "./fs-error.js";
import { makeDirectories } from "./make-directories.js";

/** Options of {@link nodeFileSystem}. */
export type NodeFileSystemOptions = {
  /** Files larger than this fail `too-large` on read. Default 10 MiB. */
  readonly maxReadBytes?: number;
};

/** Default limit of a read: 10 MiB. */
export const DEFAULT_MAX_READ_BYTES = 10 * 1024 * 1024;

/** How much of the start of a file is searched for a NUL byte to call it binary. */
const SNIFF_BYTES = 8 * 1024;
const CHUNK_BYTES = 64 * 1024;

/**
 * Reads a regular file's handle to its end, or to `limit` bytes. A short read once the size the file
 * had when opened is in is its end; files that say size 0 (those of /proc, which may read short before
 * their end) are read until a read returns nothing.
 */
const readUpTo = async (handle: FileHandle, limit: number, sizeHint: number): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const buffer = Buffer.allocUnsafe(Math.min(limit - total, Math.max(CHUNK_BYTES, sizeHint - total + 1)));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (bytesRead < buffer.length && sizeHint > 0 && total >= sizeHint) break;
  }
  return Buffer.concat(chunks, total);
};

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | NOFOLLOW;
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NONBLOCK ?? 0) | NOFOLLOW;

/** The message of a write refused because the path is a link to nothing. */
export const DANGLING_LINK_MESSAGE =
  "is a symbolic link to a file that does not exist: writing through it would create that file; refused (write to the target's path itself)";

/**
 * The path to open: `path` itself, or the target of the link it is; an error for a write through a link
 * to nothing. With `path`'s own stat when it is no link (what a stat of the path to open would say).
 */
const openablePath = async (path: string, access: "read" | "write"): Promise<Result<{ path: string; info?: Stats }, FsError>> => {
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined || !info.isSymbolicLink()) return ok(info === undefined ? { path } : { path, info });
  const target = await realpath(path).catch(() => undefined);
  if (target !== undefined) return ok({ path: target });
  if (access === "read") return err({ kind: "not-found", path });
  const to = await readlink(path).catch(() => "?");
  return err({ kind: "io", path, message: `${DANGLING_LINK_MESSAGE} (it points to ${to})` });
};

type Kind = { isFile(): boolean; isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean };

const notRegular = (path: string, info: Kind): FsError | undefined => {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return { kind: "is-directory", path };
  const what = info.isFIFO()
    ? "a FIFO"
    : info.isSocket()
      ? "a socket"
      : info.isCharacterDevice()
        ? "a character device"
        : info.isBlockDevice()
          ? "a block device"
          : "a special file";
  return { kind: "io", path, message: `not a regular file (${what})` };
};

/** The bytes of a regular file of at most `maxBytes`, opened without blocking. */
const readBytesBounded = async (asked: string, maxBytes: number): Promise<Result<Buffer, FsError>> => {
  const openable = await openablePath(asked, "read");
  if (openable.isErr()) return err(openable.error);
  const { path } = openable.value;
  const info = openable.value.info ?? (await fsStat(path));
  const special = notRegular(path, info);
  if (special !== undefined) return err(special);
  if (info.size > maxBytes) return err({ kind: "too-large", path, size: info.size });
  const handle = await open(path, READ_FLAGS);
  try {
    const opened = notRegular(path, await handle.stat());
    if (opened !== undefined) return err(opened);
    const bytes = await readUpTo(handle, maxBytes + 1, info.size);
    return bytes.length > maxBytes ? err({ kind: "too-large", path, size: bytes.length }) : ok(bytes);
  } finally {
    await handle.close();
  }
};

const readBounded = async (path: string, maxBytes: number): Promise<Result<string, FsError>> =>
  (await readBytesBounded(path, maxBytes)).andThen((bytes) =>
    bytes.subarray(0, SNIFF_BYTES).includes(0) ? err({ kind: "binary", path } as const) : ok(bytes.toString("utf8")),
  );

/** Writes `text` to a regular file (created when missing); refuses anything else without blocking. */
const writeRegular = async (asked: string, text: string): Promise<Result<void, FsError>> => {
  await makeDirectories(dirname(asked));
  const openable = await openablePath(asked, "write");
  if (openable.isErr()) return err(openable.error);
  const { path } = openable.value;
  const existing = openable.value.info ?? (await fsStat(path).catch(() => undefined));
  const special = existing === undefined ? undefined : notRegular(path, existing);
  if (special !== undefined) return err(special);
  const handle = await open(path, WRITE_FLAGS, 0o666);
  try {
    const opened = notRegular(path, await handle.stat());
    if (opened !== undefined) return err(opened);
    await handle.writeFile(text, "utf8");
    return ok(undefined);
  } finally {
    await handle.close();
  }
};

/** `path` with every link of its deepest existing directory resolved; the part that does not exist yet kept as written. */
const resolvedAbove = async (path: string): Promise<string> => {
  const parent = dirname(path);
  if (parent === path) return path;
  const base = (await realpath(parent).catch(() => undefined)) ?? (await resolvedAbove(parent));
  return `${base === "/" ? "" : base}/${basename(path)}`;
};

/** Where a write to `path` lands: every link on the way resolved (missing directories too); a link to nothing is an error. */
const landing = async (path: string): Promise<Result<string, FsError>> => {
  const openable = await openablePath(path, "write");
  if (openable.isErr()) return err(openable.error);
  const real = await realpath(openable.value.path).catch(() => undefined);
  return ok(real ?? (await resolvedAbove(openable.value.path)));
};

const kindOf = (info: { isFile(): boolean; isDirectory(): boolean }): FileStat["kind"] => (info.isFile() ? "file" : info.isDirectory() ? "directory" : "other");

/** The FileSystem port on the local disk. Paths are absolute; no method throws or rejects. */
export const nodeFileSystem = (options: NodeFileSystemOptions = {}): FileSystem => {
  const maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
  return {
    readText: (path) => new ResultAsync(readBounded(path, maxReadBytes).catch((error: unknown) => err(fsErrorOf(path, error, "read")))),
    writeText: (path, text) => new ResultAsync(writeRegular(path, text).catch((error: unknown) => err(fsErrorOf(path, error, "write")))),
    readBytes: (path) =>
      new ResultAsync(readBytesBounded(path, maxReadBytes).catch((error: unknown) => err(fsErrorOf(path, error, "read")))).map((bytes): Uint8Array => bytes),
    stat: (path) =>
      ResultAsync.fromPromise(fsStat(path), (error) => fsErrorOf(path, error, "stat")).map((info): FileStat => ({ kind: kindOf(info), size: info.size })),
    realPath: (path) => new ResultAsync(landing(path).catch((error: unknown) => err(fsErrorOf(path, error, "stat")))),
  };
};
