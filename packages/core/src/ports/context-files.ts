/**
 * The ContextFiles port: what mm reads on its own to put before the model (a cwd's AGENTS.md), as
 * opposed to what a tool reads at the model's request. Only a regular file inside `root` (the
 * directory the file belongs to) is read; the node adapter (`@mm/node`'s boundary) also refuses
 * links leaving `root` and the paths the sandbox hides.
 */
import { errAsync, type ResultAsync } from "neverthrow";
import { isInside, resolvePath } from "../paths/path.js";
import type { FileSystem, FsError } from "./file-system.js";

/** The ContextFiles port. No method throws or rejects. */
export type ContextFiles = {
  /** The UTF-8 text of `path` (absolute, or relative to `root`), a regular file inside `root`. */
  readonly read: (root: string, path: string) => ResultAsync<string, FsError>;
};

/** The in-memory adapter: `fs`'s files, only those whose path is inside `root` (an in-memory file system has no links). */
export const contextFilesOn = (fs: FileSystem): ContextFiles => ({
  read: (root, path) => {
    const full = resolvePath(root, path);
    return isInside(root, full) ? fs.readText(full) : errAsync({ kind: "io", path: full, message: `outside ${root}, not read` });
  },
});
