import { lstat, mkdir, readdir, rmdir, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { isSessionId, type UndoLog, type UndoPlace, type UndoStore, type UndoStoreError } from "@mm/core";
import { err, ok, ResultAsync, type Result } from "neverthrow";
import { errorCode, reasonOf } from "../errno.js";
import { prepareSessionsDir, readRegularBytes, readRegularFile, writeAtomically } from "../sessions/session-files.js";
import { BLOB_HASH, decodeUndoLog, encodeUndoLog } from "./undo-log-file.js";
import { processUndoKey, type UndoKeyLoader } from "./undo-key.js";
import { localWorkspace, sha256 } from "./workspace-files.js";

export type NodeUndoStoreOptions = {
  /** The sessions dir, as `sessions.dir`: relative to each session's cwd, or absolute. */
  readonly dir: string;
  /** The key that signs the logs (`undoKeyFile`); one of this process only when absent. */
  readonly key?: UndoKeyLoader;
  /**
   * Whether bytes hold a secret mm holds (boundary/secrets.ts): such a file's before-state is never
   * copied into the sessions dir; /undo names it not restorable.
   */
  readonly holdsSecret?: (bytes: Uint8Array) => boolean;
};

/** Why a before-state holding a secret is not kept. */
export const SECRET_NOT_KEPT = "it holds a secret of the agent's (the model's key or an MCP server's), which mm never copies";

/** An undo log larger than this is not read (it is read at the start of every turn). */
const MAX_LOG_BYTES = 64 * 1024 * 1024;

const io = (message: string): UndoStoreError => ({ kind: "io", message });
const corrupt = (message: string): UndoStoreError => ({ kind: "corrupt", message });

type Paths = { readonly dir: string; readonly log: string; readonly blobs: string };

/** The blobs dir: created 0700 when missing, never a link. */
const blobsDir = async (blobs: string, create: boolean): Promise<Result<boolean, string>> => {
  let info: Awaited<ReturnType<typeof lstat>> | undefined;
  try {
    info = await lstat(blobs);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") return err(`cannot use ${blobs}: ${reasonOf(error)}`);
  }
  if (info !== undefined) {
    if (info.isSymbolicLink()) return err(`undo blobs dir is a symlink: ${blobs}`);
    return info.isDirectory() ? ok(true) : err(`undo blobs dir is not a directory: ${blobs}`);
  }
  if (!create) return ok(false);
  try {
    await mkdir(blobs, 0o700);
  } catch (error) {
    if (errorCode(error) !== "EEXIST") return err(`cannot create ${blobs}: ${reasonOf(error)}`);
  }
  return blobsDir(blobs, false);
};

/** A blob's bytes: read as the session files are (no link, no FIFO); a missing one is an error. */
const readBlob = async (path: string): Promise<Result<Buffer, string>> =>
  (await readRegularBytes(path, "undo blob")).andThen((bytes) => (bytes === undefined ? err(`undo blob is missing: ${path}`) : ok(bytes)));

/** The UndoStore port on local files; no method throws or rejects. */
export const nodeUndoStore = (options: NodeUndoStoreOptions): UndoStore => {
  const key = options.key ?? processUndoKey();
  const pathsOf = (place: UndoPlace): Result<Paths, UndoStoreError> => {
    if (!isSessionId(place.sessionId)) return err(io(`invalid session id: ${JSON.stringify(place.sessionId).slice(0, 60)}`));
    const dir = resolve(place.cwd, options.dir);
    return ok({ dir, log: join(dir, `${place.sessionId}.undo.json`), blobs: join(dir, `${place.sessionId}.undo`) });
  };
  const guarded = <T>(place: UndoPlace, run: (paths: Paths) => Promise<Result<T, UndoStoreError>>): ResultAsync<T, UndoStoreError> => {
    const paths = pathsOf(place);
    if (paths.isErr()) return new ResultAsync(Promise.resolve(err(paths.error)));
    return new ResultAsync(run(paths.value).catch((error: unknown) => err(io(reasonOf(error)))));
  };

  const putBlob = (place: UndoPlace, bytes: Uint8Array) =>
    guarded(place, async (paths): Promise<Result<string, UndoStoreError>> => {
      if (options.holdsSecret?.(bytes) === true) return err(io(SECRET_NOT_KEPT));
      const prepared = await prepareSessionsDir(paths.dir, place.cwd);
      if (prepared.isErr()) return err(io(prepared.error));
      const dir = await blobsDir(paths.blobs, true);
      if (dir.isErr()) return err(io(dir.error));
      const hash = sha256(bytes);
      const target = join(paths.blobs, hash);
      const known = await lstat(target).catch(() => undefined);
      // Kept already, when what is there holds these bytes (not other bytes of the same size).
      if (known?.isFile() === true && known.size === bytes.length) {
        const kept = await readBlob(target);
        if (kept.isOk() && sha256(kept.value) === hash) return ok(hash);
      }
      const written = await writeAtomically(target, bytes);
      return written.isErr() ? err(io(written.error)) : ok(hash);
    });

  const getBlob = (place: UndoPlace, hash: string) =>
    guarded(place, async (paths): Promise<Result<Uint8Array, UndoStoreError>> => {
      if (!BLOB_HASH.test(hash)) return err(corrupt(`blob name is not a SHA-256: ${hash.slice(0, 80)}`));
      const dir = await blobsDir(paths.blobs, false);
      if (dir.isErr()) return err(io(dir.error));
      const read = await readBlob(join(paths.blobs, hash));
      if (read.isErr()) return err(io(read.error));
      return sha256(read.value) === hash ? ok(read.value) : err(corrupt(`blob ${hash} does not hold what its name says`));
    });

  const loadLog = (place: UndoPlace) =>
    guarded(place, async (paths): Promise<Result<UndoLog, UndoStoreError>> => {
      const text = await readRegularFile(paths.log, "undo log", MAX_LOG_BYTES);
      if (text.isErr()) return err(io(text.error));
      if (text.value === undefined) return ok({ turns: [] });
      const signing = await key();
      if (signing.isErr()) return err(io(signing.error));
      return decodeUndoLog(text.value, place.sessionId, place.cwd, signing.value).mapErr((problem) => corrupt(`${paths.log}: ${problem}`));
    });

  /** Drops the blobs `log` does not name (and temp files a crash left). */
  const collect = async (paths: Paths, log: UndoLog): Promise<void> => {
    const dir = await blobsDir(paths.blobs, false);
    if (dir.isErr() || !dir.value) return;
    const named = new Set(log.turns.flatMap((t) => t.files.flatMap((f) => (f.before.kind === "blob" ? [f.before.hash] : []))));
    const entries = await readdir(paths.blobs).catch(() => [] as string[]);
    await Promise.all(entries.filter((name) => !named.has(name)).map((name) => unlink(join(paths.blobs, name)).catch(() => undefined)));
    if (named.size === 0) await rmdir(paths.blobs).catch(() => undefined);
  };

  const saveLog = (place: UndoPlace, log: UndoLog) =>
    guarded(place, async (paths): Promise<Result<void, UndoStoreError>> => {
      if (log.turns.length === 0) {
        await unlink(paths.log).catch((error: unknown) => {
          if (errorCode(error) !== "ENOENT") throw error;
        });
        await collect(paths, log);
        return ok(undefined);
      }
      const prepared = await prepareSessionsDir(paths.dir, place.cwd);
      if (prepared.isErr()) return err(io(prepared.error));
      const signing = await key();
      if (signing.isErr()) return err(io(signing.error));
      const written = await writeAtomically(paths.log, encodeUndoLog(place.sessionId, place.cwd, log, signing.value));
      if (written.isErr()) return err(io(written.error));
      await collect(paths, log);
      return ok(undefined);
    });

  return {
    ...localWorkspace,
    putBlob,
    getBlob,
    loadLog,
    saveLog,
    owns: (cwd, path) => {
      const dir = resolve(cwd, options.dir);
      return path === dir || path.startsWith(`${dir}/`);
    },
  };
};
