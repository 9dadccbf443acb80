/**
 * `mkdir -p` that cannot hang. Not `mkdir(dir, { recursive:
 * true })`: on Node 20 that loops forever, a thread-pool thread at full CPU, when mkdir answers ENOENT
 * under a directory that exists (anywhere in /proc). Here a second ENOENT once the parent exists is
 * an error.
 */
import { mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { errorCode } from "../errno.js";

const errno = (code: string, path: string): Error => Object.assign(new Error(`${code}: ${path}`), { code, syscall: "mkdir", path });

/** Creates `dir` and its missing parents (with `mode` for `dir` itself); fine when it exists. */
export const makeDirectories = async (dir: string, mode?: number): Promise<void> => {
  try {
    await mkdir(dir, mode);
    return;
  } catch (error) {
    const code = errorCode(error);
    if (code === "EEXIST") {
      if (!(await stat(dir)).isDirectory()) throw errno("ENOTDIR", dir);
      return;
    }
    if (code !== "ENOENT" || dirname(dir) === dir) throw error;
  }
  await makeDirectories(dirname(dir));
  await mkdir(dir, mode).catch((error: unknown) => {
    if (errorCode(error) !== "EEXIST") throw error;
  });
};
