/**
 * memoryUndoStore: `/undo` for sessions not kept on disk (`sessions.enabled` off). The workspace side
 * is nodeUndoStore's (local files, never through a link); the log and the before-states live in this
 * process's memory, so nothing is written anywhere mm was not asked to write, and they end with it.
 * Its budget is smaller than on disk (MEMORY_UNDO_LIMITS) since it is memory the agent holds.
 */
import { createHash } from "node:crypto";
import { DEFAULT_UNDO_LIMITS, type UndoLimits, type UndoLog, type UndoPlace, type UndoStore } from "@mm/core";
import { err, errAsync, okAsync, ResultAsync } from "neverthrow";
import { reasonOf } from "../errno.js";
import { readNow, restoreFile } from "./workspace-files.js";

/** 16 MiB a file, as on disk; 64 MiB a session. */
export const MEMORY_UNDO_LIMITS: UndoLimits = { maxFileBytes: DEFAULT_UNDO_LIMITS.maxFileBytes, maxSessionBytes: 64 * 1024 * 1024 };

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");
const keyOf = (place: UndoPlace): string => `${place.cwd}\u0000${place.sessionId}`;

/** The UndoStore port with its log and blobs in memory; no method throws or rejects. */
export const memoryUndoStore = (): UndoStore => {
  const logs = new Map<string, UndoLog>();
  const blobs = new Map<string, Map<string, Uint8Array>>();
  const blobsOf = (place: UndoPlace): Map<string, Uint8Array> => {
    const key = keyOf(place);
    const known = blobs.get(key) ?? new Map<string, Uint8Array>();
    blobs.set(key, known);
    return known;
  };
  return {
    read: (path, maxBytes) => readNow(path, maxBytes),
    hash: sha256,
    putBlob: (place, bytes) => {
      const hash = sha256(bytes);
      blobsOf(place).set(hash, bytes.slice());
      return okAsync(hash);
    },
    getBlob: (place, hash) => {
      const bytes = blobs.get(keyOf(place))?.get(hash);
      return bytes === undefined ? errAsync({ kind: "corrupt" as const, message: `blob ${hash} is missing` }) : okAsync(bytes);
    },
    loadLog: (place) => okAsync(logs.get(keyOf(place)) ?? { turns: [] }),
    saveLog: (place, log) => {
      const key = keyOf(place);
      const named = new Set(log.turns.flatMap((t) => t.files.flatMap((f) => (f.before.kind === "blob" ? [f.before.hash] : []))));
      const kept = blobsOf(place);
      for (const hash of kept.keys()) if (!named.has(hash)) kept.delete(hash);
      if (log.turns.length === 0) {
        logs.delete(key);
        blobs.delete(key);
      } else logs.set(key, log);
      return okAsync(undefined);
    },
    // No sessions dir is in use: every file of the workspace is the user's.
    owns: () => false,
    restore: (path, bytes) => new ResultAsync(restoreFile(path, bytes).catch((error: unknown) => err(reasonOf(error)))),
  };
};
