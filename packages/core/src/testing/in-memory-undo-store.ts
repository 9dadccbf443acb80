/**
 * An UndoStore over an InMemoryFileSystem: files are its map's texts (UTF-8 bytes), blobs and logs
 * live in maps per session, the hash is FNV-1a (64 bits); it owns `<cwd>/.mm/sessions/`. Links do not exist here; a path can be
 * marked `unreadable` to stand for one, and writes can be made to fail.
 */
import { errAsync, okAsync } from "neverthrow";
import type { FileNow, UndoLog, UndoPlace, UndoStore } from "../ports/undo-store.js";
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
};

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const keyOf = (place: UndoPlace): string => `${place.cwd}|${place.sessionId}`;

/** FNV-1a over the bytes, 64 bits, as 16 hex digits. */
const fnv1a = (bytes: Uint8Array): string => {
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash.toString(16).padStart(16, "0");
};

/** An UndoStore over `fs`'s files. */
export const inMemoryUndoStore = (fs: InMemoryFileSystem): InMemoryUndoStore => {
  const blobs = new Map<string, Map<string, Uint8Array>>();
  const logs = new Map<string, UndoLog>();
  const unreadable = new Map<string, string>();
  const failing = new Map<string, string>();
  const blobsOf = (place: UndoPlace): Map<string, Uint8Array> => {
    const key = keyOf(place);
    const known = blobs.get(key) ?? new Map<string, Uint8Array>();
    blobs.set(key, known);
    return known;
  };
  return {
    blobs,
    logs,
    unreadable,
    failing,
    read: async (path, maxBytes): Promise<FileNow> => {
      const reason = unreadable.get(path);
      if (reason !== undefined) return { kind: "unreadable", reason };
      const text = fs.files.get(path);
      if (text === undefined) return { kind: "absent" };
      const bytes = encoder.encode(text);
      return bytes.length > maxBytes ? { kind: "unreadable", reason: `larger than ${maxBytes} bytes` } : { kind: "bytes", bytes };
    },
    hash: fnv1a,
    putBlob: (place, bytes) => {
      const hash = fnv1a(bytes);
      blobsOf(place).set(hash, bytes.slice());
      return okAsync(hash);
    },
    getBlob: (place, hash) => {
      const bytes = blobsOf(place).get(hash);
      return bytes === undefined ? errAsync({ kind: "corrupt", message: `blob ${hash} is missing` }) : okAsync(bytes);
    },
    loadLog: (place) => okAsync(logs.get(keyOf(place)) ?? { turns: [] }),
    saveLog: (place, log) => {
      logs.set(keyOf(place), log);
      const named = new Set(log.turns.flatMap((t) => t.files.flatMap((f) => (f.before.kind === "blob" ? [f.before.hash] : []))));
      const kept = blobsOf(place);
      for (const hash of kept.keys()) if (!named.has(hash)) kept.delete(hash);
      return okAsync(undefined);
    },
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
