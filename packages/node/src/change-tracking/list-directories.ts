/**
 * listDirectories: the directories of a subtree a watcher must cover, found with `readdir` alone (file
 * types from the directory entries, no `stat`). Symbolic links are not followed; some directories are
 * left out by the caller's rule and, when asked, directories holding a `.git` entry (repositories of
 * their own) are named apart and not entered.
 */
import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";

export type DirectoryListing = {
  /** Relative to the root, `""` for the root itself; `from` first. */
  readonly dirs: string[];
  /** With `repositoriesApart`, directories holding a `.git` entry (the root aside): not entered. */
  readonly repositories: string[];
  /** True when the walk stopped at `max` directories. */
  readonly truncated: boolean;
};

const unreadable = (error: unknown): boolean =>
  typeof error === "object" && error !== null && "code" in error && ["ENOENT", "ENOTDIR", "EACCES", "EPERM"].includes(String(error.code));

export type ListOptions = {
  /** Directories left out, with what is under them (sees the relative path and the entry's name). */
  readonly skip: (relative: string, name: string) => boolean;
  /** Name directories holding a `.git` entry in `repositories` instead of entering them. */
  readonly repositoriesApart: boolean;
  readonly max: number;
};

/**
 * The directories under `root/from` (relative paths), without those `skip` rejects and without `.git`
 * itself. An unreadable directory is listed and not entered.
 */
export const listDirectories = (root: string, from: string, options: ListOptions): DirectoryListing => {
  const dirs: string[] = [];
  const repositories: string[] = [];
  const pending = [from];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, next), { withFileTypes: true });
    } catch (error) {
      if (!unreadable(error)) throw error;
      if (next === from) return { dirs, repositories, truncated: false };
      dirs.push(next);
      continue;
    }
    if (options.repositoriesApart && next !== "" && entries.some((entry) => entry.name === ".git")) {
      repositories.push(next);
      continue;
    }
    dirs.push(next);
    if (dirs.length > options.max) return { dirs, repositories, truncated: true };
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === ".git") continue;
      const relative = next === "" ? entry.name : `${next}/${entry.name}`;
      if (!options.skip(relative, entry.name)) pending.push(relative);
    }
  }
  return { dirs, repositories, truncated: false };
};
