/**
 * The bytes of a kept index (kept-index.ts) between steps: in memory, on disk only during a step, in a
 * temporary directory removed at its end, the file given back its own mtime (git's racy-entry check
 * compares with it). Read back into the memory of an index no longer current nor held by a snapshot
 * (fresh memory costs a page fault per page; reused memory does not).
 */
import {
  closeSync,
  copyFileSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

export type IndexMemory = {
  /** The index as of the last step; undefined: none yet (the next step starts from the user's index). */
  readonly bytes: () => Buffer | undefined;
  /** Forgets the index: the next step starts from the user's. */
  readonly drop: () => void;
  /** Counts a snapshot holding `bytes` (by 1) or letting them go (by -1): memory held is never reused. */
  readonly hold: (bytes: Buffer | undefined, by: number) => void;
  /**
   * The index on disk for `work`, in a temporary directory removed after it; kept in memory again.
   * Synchronous file calls: a millisecond or two, where the promise API took ten here.
   */
  readonly onDisk: <T>(work: (indexFile: string) => Promise<T>) => Promise<T>;
};

type IndexBytes = { readonly bytes: Buffer; readonly atime: Date; readonly mtime: Date };

/** Memory for an index seeded from `userIndex` (a copy), on disk under `tempDir` during a step. */
export const indexMemory = (tempDir: string, userIndex: string): IndexMemory => {
  let index: IndexBytes | undefined;
  /** Memory for the next index read back. */
  let spare: Buffer | undefined;
  const held = new Map<ArrayBufferLike, number>();
  const release = (bytes: Buffer | undefined): void => {
    if (bytes === undefined || (held.get(bytes.buffer) ?? 0) > 0 || bytes.buffer === index?.bytes.buffer) return;
    if (spare === undefined || bytes.buffer.byteLength > spare.length) spare = Buffer.from(bytes.buffer);
  };
  const hold = (bytes: Buffer | undefined, by: number): void => {
    if (bytes === undefined) return;
    const count = (held.get(bytes.buffer) ?? 0) + by;
    if (count > 0) held.set(bytes.buffer, count);
    else {
      held.delete(bytes.buffer);
      release(bytes);
    }
  };
  const readBack = (file: string): Buffer => {
    const fd = openSync(file, "r");
    try {
      const size = fstatSync(fd).size;
      const memory = spare !== undefined && spare.length >= size ? spare : Buffer.allocUnsafeSlow(Math.ceil(size * 1.25));
      spare = undefined;
      const bytes = memory.subarray(0, size);
      for (let read = 0; read < size; ) {
        const got = readSync(fd, bytes, read, size - read, read);
        if (got === 0) throw new Error("the index shrank while read");
        read += got;
      }
      return bytes;
    } finally {
      closeSync(fd);
    }
  };

  const onDisk = async <T>(work: (indexFile: string) => Promise<T>): Promise<T> => {
    const dir = mkdtempSync(join(tempDir, "mm-changes-"));
    const file = join(dir, "index");
    try {
      if (index === undefined) {
        try {
          copyFileSync(userIndex, file);
        } catch {
          // no index yet: git makes one
        }
      } else {
        writeFileSync(file, index.bytes);
        utimesSync(file, index.atime, index.mtime);
      }
      const result = await work(file);
      const previous = index?.bytes;
      try {
        const info = statSync(file);
        index = { bytes: readBack(file), atime: info.atime, mtime: info.mtime };
      } catch {
        index = undefined;
      }
      release(previous);
      return result;
    } finally {
      try {
        unlinkSync(file);
        rmdirSync(dir);
      } catch {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  };

  return {
    bytes: () => index?.bytes,
    drop: () => {
      index = undefined;
    },
    hold,
    onDisk,
  };
};
