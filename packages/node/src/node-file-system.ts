/**
 * nodeFileSystem: the FileSystem port on node:fs. Reads refuse directories, binary content and files
 * over a size limit; writes create missing parent directories. Failures are FsError values.
 */
import { mkdir, open, stat as fsStat, writeFile, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { err, ok, ResultAsync, type Result } from "neverthrow";
import type { FileStat, FileSystem, FsError } from "./core-types.js";
import { fsErrorOf } from "./fs-error.js";

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

const readBounded = async (path: string, maxBytes: number): Promise<Result<string, FsError>> => {
  const info = await fsStat(path);
  if (info.isDirectory()) return err({ kind: "is-directory", path });
  if (info.isFIFO() || info.isSocket()) return err({ kind: "io", path, message: "not a regular file" });
  if (info.size > maxBytes) return err({ kind: "too-large", path, size: info.size });
  const handle = await open(path, "r");
  try {
    const bytes = await readUpTo(handle, maxBytes + 1, info.size);
    if (bytes.length > maxBytes) return err({ kind: "too-large", path, size: bytes.length });
    if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return err({ kind: "binary", path });
    return ok(bytes.toString("utf8"));
  } finally {
    await handle.close();
  }
};

const kindOf = (info: { isFile(): boolean; isDirectory(): boolean }): FileStat["kind"] =>
  info.isFile() ? "file" : info.isDirectory() ? "directory" : "other";

/** The FileSystem port on the local disk. Paths are absolute; no method throws or rejects. */
export const nodeFileSystem = (options: NodeFileSystemOptions = {}): FileSystem => {
  const maxReadBytes = options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES;
  return {
    readText: (path) =>
      new ResultAsync(readBounded(path, maxReadBytes).catch((error: unknown) => err(fsErrorOf(path, error, "read")))),
    writeText: (path, text) =>
      ResultAsync.fromPromise(
        mkdir(dirname(path), { recursive: true }).then(() => writeFile(path, text, "utf8")),
        (error) => fsErrorOf(path, error, "write"),
      ),
    stat: (path) =>
      ResultAsync.fromPromise(fsStat(path), (error) => fsErrorOf(path, error, "stat")).map(
        (info): FileStat => ({ kind: kindOf(info), size: info.size }),
      ),
  };
};
