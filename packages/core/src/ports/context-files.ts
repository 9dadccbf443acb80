/**
 * The ContextFiles port: what mm reads on its own to put before the model (the AGENTS.md files from
 * a cwd's repository root down to it), as opposed to what a tool reads at the model's request. Only a
 * regular file inside `root` (the directory the file belongs to) is read; the node adapter (`@mm/node`'s
 * boundary) also refuses links leaving `root` and the paths the sandbox hides.
 */
import { errAsync, type ResultAsync } from "neverthrow";
import { isInside, normalizeAbsolute, resolvePath } from "../paths/path.js";
import type { FileSystem, FsError } from "./file-system.js";

/** The ContextFiles port. No method throws or rejects. */
export type ContextFiles = {
  /**
   * The UTF-8 text of `path` (absolute, or relative to `root`), a regular file inside `root`. `cwd` is
   * the session's working directory (what relative hidden paths are relative to); `root` when absent.
   */
  readonly read: (root: string, path: string, cwd?: string) => ResultAsync<string, FsError>;
  /**
   * The repository root of `cwd`: the nearest directory, `cwd` itself or an ancestor, holding a `.git`
   * (a directory or a file, never a link); undefined when there is none. Absent: `cwd` alone is read.
   */
  readonly repositoryRoot?: (cwd: string) => Promise<string | undefined>;
};

/** The directories from `root` down to `cwd`, both included (root first); `[cwd]` when `cwd` is not inside `root`. */
export const directoriesDownTo = (root: string, cwd: string): readonly string[] => {
  const top = normalizeAbsolute(root);
  const bottom = normalizeAbsolute(cwd);
  if (!isInside(top, bottom)) return [bottom];
  const below = bottom
    .slice(top.length)
    .split("/")
    .filter((part) => part !== "");
  return [top, ...below.map((_, i) => normalizeAbsolute(`${top}/${below.slice(0, i + 1).join("/")}`))];
};

/** The in-memory adapter: `fs`'s files, only those whose path is inside `root` (an in-memory file system has no links). */
export const contextFilesOn = (fs: FileSystem): ContextFiles => ({
  read: (root, path) => {
    const full = resolvePath(root, path);
    return isInside(root, full) ? fs.readText(full) : errAsync({ kind: "io", path: full, message: `outside ${root}, not read` });
  },
  repositoryRoot: async (cwd) => {
    const dirs = directoriesDownTo("/", cwd);
    for (const dir of [...dirs].reverse()) {
      const found = await fs.stat(resolvePath(dir, ".git"));
      if (found.isOk() && found.value.kind !== "other") return dir;
    }
    return undefined;
  },
});
