/**
 * The session side of an UndoStore held in memory: the log and the blobs of each session, keyed by
 * its place. Shared by the in-memory adapter (tests, embedders) and mm's store for sessions not kept
 * on disk; `hash` names the blobs.
 */
import { errAsync, okAsync } from "neverthrow";
import type { UndoLog, UndoPlace, UndoStore } from "../ports/undo-store.js";

/** The session side, and the maps behind it (by `cwd|id`) for a test to look at. */
export type UndoDataInMemory = Pick<UndoStore, "putBlob" | "getBlob" | "loadLog" | "saveLog"> & {
  readonly blobs: Map<string, Map<string, Uint8Array>>;
  readonly logs: Map<string, UndoLog>;
};

/** `cwd|id`: the key of a session's data. */
export const undoPlaceKey = (place: UndoPlace): string => `${place.cwd}|${place.sessionId}`;

/** The blob hashes a log names. */
const namedBlobs = (log: UndoLog): ReadonlySet<string> =>
  new Set(log.turns.flatMap((t) => t.files.flatMap((f) => (f.before.kind === "blob" ? [f.before.hash] : []))));

/** `forgetEmpty`: an empty log drops the session's entries altogether (else it is kept, empty). */
export const undoDataInMemory = (hash: (bytes: Uint8Array) => string, options: { readonly forgetEmpty?: boolean } = {}): UndoDataInMemory => {
  const blobs = new Map<string, Map<string, Uint8Array>>();
  const logs = new Map<string, UndoLog>();
  const blobsOf = (place: UndoPlace): Map<string, Uint8Array> => {
    const key = undoPlaceKey(place);
    const known = blobs.get(key) ?? new Map<string, Uint8Array>();
    blobs.set(key, known);
    return known;
  };
  return {
    blobs,
    logs,
    putBlob: (place, bytes) => {
      const name = hash(bytes);
      blobsOf(place).set(name, bytes.slice());
      return okAsync(name);
    },
    getBlob: (place, name) => {
      const bytes = blobs.get(undoPlaceKey(place))?.get(name);
      return bytes === undefined ? errAsync({ kind: "corrupt", message: `blob ${name} is missing` }) : okAsync(bytes);
    },
    loadLog: (place) => okAsync(logs.get(undoPlaceKey(place)) ?? { turns: [] }),
    saveLog: (place, log) => {
      const key = undoPlaceKey(place);
      if (options.forgetEmpty === true && log.turns.length === 0) {
        logs.delete(key);
        blobs.delete(key);
        return okAsync(undefined);
      }
      logs.set(key, log);
      const named = namedBlobs(log);
      const kept = blobsOf(place);
      for (const name of kept.keys()) if (!named.has(name)) kept.delete(name);
      return okAsync(undefined);
    },
  };
};
