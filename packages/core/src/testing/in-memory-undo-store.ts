/**
 * An UndoStore over an InMemoryFileSystem: files are its map's texts (UTF-8 bytes), blobs and logs
 * live in maps per session, the hash is FNV-1a (64 bits); it owns `<cwd>/.mm/sessions/`. Links do not exist here; a path can be
 * marked `unreadable` to stand for one, and writes can be made to fail.
 */
import { errAsync, okAsync } from "neverthrow";
import type { FileNow, UndoLog, UndoStore } from "../ports/undo-store.js";
import { undoDataInMemory } from "../undo/undo-data-in-memory.js";
import type { InMemoryFileSystem } from "./in-memory-file-system.js";

/** The in-memory UndoStore and what a test can look at or break. */
export type InMemoryUndoStore = UndoStore & {
  /** Blobs by session key (`cwd|id`), then hash. */
  readonly blobs: Map<string, Map<string, Uint8Array>>;
  /** Saved logs by session key. */
  readonly logs: Map<string, UndoLog>;
  /** Paths read as `unreadable` with the given reason (a link in their place, say). */
  readonly unreadable: Map<string, string>;
  /** Paths whose restore fails with the given reason. */
  readonly failing: Map<string, string>;
  /** Set `saves` to make every saveLog fail with that reason (a full disk, a key that cannot be made). */
  readonly broken: { saves?: string | undefined };
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** FNV-1a over the bytes, 64 bits, as 16 hex digits. */
const fnv1a = (bytes: Uint8Array): string => {
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash.toString(16).padStart(16, "0");
};

/** An UndoStore over `fs`'s files. */
export const inMemoryUndoStore = (fs: InMemoryFileSystem): InMemoryUndoStore => {
  const data = undoDataInMemory(fnv1a);
  const unreadable = new Map<string, string>();
  const failing = new Map<string, string>();
  const broken: { saves?: string | undefined } = {};
  return {
    ...data,
    saveLog: (place, log) => (broken.saves !== undefined ? errAsync({ kind: "io" as const, message: broken.saves }) : data.saveLog(place, log)),
    unreadable,
    failing,
    broken,
    read: async (path, maxBytes): Promise<FileNow> => {
      const reason = unreadable.get(path);
      if (reason !== undefined) return { kind: "unreadable", reason };
      const text = fs.files.get(path);
      if (text === undefined) return { kind: "absent" };
      const bytes = encoder.encode(text);
      return bytes.length > maxBytes ? { kind: "unreadable", reason: `larger than ${maxBytes} bytes` } : { kind: "bytes", bytes };
    },
    hash: fnv1a,
    owns: (cwd, path) => path.startsWith(`${cwd}/.mm/sessions/`),
    restore: (path, bytes) => {
      const reason = failing.get(path);
      if (reason !== undefined) return errAsync(reason);
      if (bytes === null) fs.files.delete(path);
      else fs.files.set(path, decoder.decode(bytes));
      return okAsync(undefined);
    },
  };
};
