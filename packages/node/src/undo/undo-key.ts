/**
 * The key that signs `/undo` logs: 32 random bytes in a file of the user's own state directory
 * (`$XDG_STATE_HOME/mm/undo.key`, else `~/.local/state/mm/undo.key`), made 0600 on first use, never
 * inside a project. A log is only used when its signature checks with this key, so undo data a
 * cloned repository ships in its `.mm/sessions/` cannot name files for `/undo` to write.
 */
import { randomBytes } from "node:crypto";
import { chmod, lstat, open, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { SAFE_READ_FLAGS } from "../files/safe-read-flags.js";
import { errorCode, reasonOf } from "../errno.js";
import { makeDirectories } from "../files/make-directories.js";

const KEY_BYTES = 32;

/** Loads the key at `file`, or makes it; why not, in one line. */
type KeyLoader = () => Promise<Result<Uint8Array, string>>;

const readKey = async (file: string): Promise<Result<Uint8Array, string> | undefined> => {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, SAFE_READ_FLAGS);
    const info = await handle.stat();
    if (!info.isFile()) return err(`the undo key ${file} is not a regular file`);
    if (process.getuid !== undefined && info.uid !== process.getuid()) return err(`the undo key ${file} is not the user's own`);
    if ((info.mode & 0o077) !== 0)
      return err(`the undo key ${file} can be read by others (mode ${(info.mode & 0o777).toString(8)}): remove it to make a new one`);
    const bytes = await handle.readFile();
    return bytes.length === KEY_BYTES ? ok(bytes) : err(`the undo key ${file} is not ${KEY_BYTES} bytes: remove it to make a new one`);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    return err(errorCode(error) === "ELOOP" ? `the undo key ${file} is a symbolic link` : `cannot read the undo key ${file}: ${reasonOf(error)}`);
  } finally {
    await handle?.close().catch(() => undefined);
  }
};

const makeKey = async (file: string): Promise<Result<void, string>> => {
  const dir = dirname(file);
  try {
    const existed = await lstat(dir).catch(() => undefined);
    if (existed === undefined) {
      await makeDirectories(dir, 0o700);
      await chmod(dir, 0o700);
    }
    const handle = await open(file, "wx", 0o600);
    try {
      await handle.writeFile(randomBytes(KEY_BYTES));
      await handle.sync();
    } finally {
      await handle.close();
    }
    return ok(undefined);
  } catch (error) {
    // Another mm made it first: read that one.
    return errorCode(error) === "EEXIST" ? ok(undefined) : err(`cannot make the undo key ${file}: ${reasonOf(error)}`);
  }
};

/** The key at `file`, read (or made) on first use and kept; a failure is tried again next time. */
export const undoKeyFile = (file: string): KeyLoader => {
  let kept: Uint8Array | undefined;
  return async () => {
    if (kept !== undefined) return ok(kept);
    let read = await readKey(file);
    if (read === undefined) {
      const made = await makeKey(file);
      if (made.isErr()) return err(made.error);
      read = (await readKey(file)) ?? err(`the undo key ${file} vanished as it was made`);
    }
    if (read.isOk()) kept = read.value;
    return read;
  };
};

/** A key of this process only: logs it signs cannot be used by another process. */
export const processUndoKey = (): KeyLoader => {
  const key = randomBytes(KEY_BYTES);
  return async () => ok(key);
};

export type { KeyLoader as UndoKeyLoader };
