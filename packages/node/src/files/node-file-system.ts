/**
 * nodeFileSystem: the FileSystem port on node:fs. Reads refuse directories, binary content and files
 * over a size limit; writes create missing parent directories. Failures are FsError values.
 *
 * Only regular files are read or written. A FIFO without a writer, a terminal, `/dev/ptmx` and the
 * like block a read or an open forever, and a thread-pool thread stuck so cannot be cancelled; it
 * even keeps `process.exit` from finishing. So anything else is refused before it is opened, files
 * are opened non-blocking (a path swapped for a FIFO between the check and the open still cannot
 * block), and the opened file is checked again.
 */
import { constants } from "node:fs";
import { open, stat as fsStat, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
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

const readUpTo = async (handle: FileHandle, limit: number, sizeHint: number): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const buffer = Buffer.allocUnsafe(Math.min(limit - total, Math.max(CHUNK_BYTES, sizeHint - total + 1)));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
};

const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NONBLOCK ?? 0);

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
const readBytesBounded = async (path: string, maxBytes: number): Promise<Result<Buffer, FsError>> => {
  const info = await fsStat(path);
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
const writeRegular = async (path: string, text: string): Promise<Result<void, FsError>> => {
  await makeDirectories(dirname(path));
  const existing = await fsStat(path).catch(() => undefined);
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
  };
};
