/**
 * jsonSessionStore: the SessionStore port as one JSON file per session, `<cwd>/<dir>/<id>.json`,
 * written atomically (temp file, fsync, rename, fsync of the directory), 0600 in a 0700 directory,
 * never through a symlink. The document itself is json-session-document.ts; docs/session-file.md.
 */
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { lstat, open, rename, unlink, type FileHandle } from "node:fs/promises";
import { join, resolve } from "node:path";
import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import { isSessionId, type SessionStore, type StoreError, type StoredSession } from "@mm/core";
import { decodeSessionDocument, encodeSessionDocument } from "./json-session-document.js";
import { listSessionFiles, removeSessionFile } from "./json-session-listing.js";
import { errorCode, reasonOf } from "./errno.js";
import { makeDirectories } from "./make-directories.js";

/** Options of {@link jsonSessionStore}. */
export type JsonSessionStoreOptions = {
  /** `sessions.dir`: a relative one is taken against each session's cwd, an absolute one as is. */
  readonly dir: string;
};

/** Errors of an fsync on a directory that only mean the platform or filesystem cannot do it. */
const UNSUPPORTED_DIR_SYNC = new Set(["EINVAL", "ENOTSUP", "EISDIR", "EPERM", "EACCES", "EBADF"]);

const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);



const io = (id: string, message: string): StoreError => ({ kind: "io", id, message });

/** Whether the sessions dir exists; refuses a symlink or a non-directory in its place. */
const checkSessionsDir = async (dir: string, id: string): Promise<Result<boolean, StoreError>> => {
  try {
    const info = await lstat(dir);
    if (info.isSymbolicLink()) return err(io(id, `sessions dir is a symlink: ${dir}`));
    if (!info.isDirectory()) return err(io(id, `sessions dir is not a directory: ${dir}`));
    return ok(true);
  } catch (error) {
    const code = errorCode(error);
    return code === "ENOENT" || code === "ENOTDIR" ? ok(false) : err(io(id, `cannot use sessions dir ${dir}: ${reasonOf(error)}`));
  }
};

/** Creates the sessions dir 0700 (its missing parents with the default mode) unless it exists. */
const prepareSessionsDir = async (dir: string, id: string): Promise<Result<void, StoreError>> => {
  const exists = await checkSessionsDir(dir, id);
  if (exists.isErr() || exists.value) return exists.map(() => undefined);
  try {
    await makeDirectories(dir, 0o700);
  } catch (error) {
    if (errorCode(error) !== "EEXIST") return err(io(id, `cannot create sessions dir ${dir}: ${reasonOf(error)}`));
  }
  const created = await checkSessionsDir(dir, id);
  return created.andThen((made) => (made ? ok(undefined) : err(io(id, `cannot create sessions dir ${dir}`))));
};

const syncDir = async (dir: string, id: string): Promise<Result<void, StoreError>> => {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, "r");
    await handle.sync();
    return ok(undefined);
  } catch (error) {
    const code = errorCode(error);
    return code !== undefined && UNSUPPORTED_DIR_SYNC.has(code) ? ok(undefined) : err(io(id, `cannot sync ${dir}: ${reasonOf(error)}`));
  } finally {
    await handle?.close().catch(() => undefined);
  }
};

/** Temp file in the same dir (created exclusively, 0600), written, fsynced, renamed over the target. */
const writeAtomically = async (dir: string, target: string, id: string, text: string): Promise<Result<void, StoreError>> => {
  const prepared = await prepareSessionsDir(dir, id);
  if (prepared.isErr()) return prepared;
  const temp = join(dir, `.${id}.json.${randomBytes(6).toString("hex")}.tmp`);
  let handle: FileHandle | undefined;
  let created = false;
  try {
    handle = await open(temp, "wx", 0o600);
    created = true;
    await handle.writeFile(text, "utf8");
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, target);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    if (created) await unlink(temp).catch(() => undefined);
    return err(io(id, `cannot write ${target}: ${reasonOf(error)}`));
  }
  return syncDir(dir, id);
};

const readSession = async (dir: string, target: string, id: string): Promise<Result<StoredSession, StoreError>> => {
  const exists = await checkSessionsDir(dir, id);
  if (exists.isErr()) return err(exists.error);
  if (!exists.value) return err({ kind: "not-found", id });
  let handle: FileHandle | undefined;
  let source: string;
  try {
    const info = await lstat(target);
    if (info.isSymbolicLink()) return err(io(id, `session file is a symlink: ${target}`));
    handle = await open(target, READ_FLAGS);
    if (!(await handle.stat()).isFile()) return err(io(id, `session file is not a regular file: ${target}`));
    source = (await handle.readFile()).toString("utf8");
  } catch (error) {
    const code = errorCode(error);
    if (code === "ENOENT") return err({ kind: "not-found", id });
    if (code === "ELOOP") return err(io(id, `session file is a symlink: ${target}`));
    return err(io(id, `cannot read ${target}: ${reasonOf(error)}`));
  } finally {
    await handle?.close().catch(() => undefined);
  }
  return decodeSessionDocument(source, id).mapErr((error): StoreError => ({ ...error, id }));
};

/**
 * One task at a time per key (a session file's path): a save starts once the previous save of that
 * file has finished, so concurrent saves never interleave and the last one called is the one kept.
 */
const perKeyQueue = () => {
  const tails = new Map<string, Promise<void>>();
  return {
    /** Runs `task` after every earlier task of `key`; `task` must not reject. */
    enqueue: <T>(key: string, task: () => Promise<T>): Promise<T> => {
      const run = (tails.get(key) ?? Promise.resolve()).then(task);
      const tail = run.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return run;
    },
    /** Runs `task` once the tasks of `key` queued so far are done, without holding back later ones. */
    after: <T>(key: string, task: () => Promise<T>): Promise<T> => (tails.get(key) ?? Promise.resolve()).then(task),
  };
};

/** Failures of unexpected kinds (never expected from the steps above) still end as an `io` value. */
const settled = <T>(id: string, promise: Promise<Result<T, StoreError>>): ResultAsync<T, StoreError> =>
  new ResultAsync(promise.catch((error: unknown) => err(io(id, `session store failed: ${reasonOf(error)}`))));

/** The SessionStore port on local JSON files. No method throws or rejects. */
export const jsonSessionStore = (options: JsonSessionStoreOptions): SessionStore => {
  const queue = perKeyQueue();
  const locate = (cwd: string, id: string) => {
    const dir = resolve(cwd, options.dir);
    return { dir, target: join(dir, `${id}.json`) };
  };
  return {
    save: (session) => {
      const { id } = session;
      if (!isSessionId(id)) return errAsync({ kind: "invalid-id", id });
      const text = encodeSessionDocument(session);
      if (text.isErr()) return errAsync(io(id, text.error));
      const { dir, target } = locate(session.cwd, id);
      return settled(id, queue.enqueue(target, () => writeAtomically(dir, target, id, text.value)));
    },
    load: (cwd, id) => {
      if (!isSessionId(id)) return errAsync({ kind: "invalid-id", id });
      const { dir, target } = locate(cwd, id);
      return settled(id, queue.after(target, () => readSession(dir, target, id)));
    },
    list: (cwd) => settled("", listSessionFiles(resolve(cwd, options.dir), cwd)),
    remove: (cwd, id) => {
      if (!isSessionId(id)) return errAsync({ kind: "invalid-id", id });
      const { dir, target } = locate(cwd, id);
      return settled(id, queue.enqueue(target, () => removeSessionFile(dir, id)));
    },
  };
};
