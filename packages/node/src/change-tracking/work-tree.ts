/**
 * Where a cwd sits in its git work tree, found with `git rev-parse`; a finder that remembers the
 * answer while it still holds.
 */
import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { ChangeTrackingOptions } from "./limits.js";
import { gitEnvironment, runGit } from "./run-git.js";

/** Where a cwd sits in its git work tree. */
export type WorkTree = {
  /** The cwd as given to `begin`: reported paths are under it. */
  readonly cwd: string;
  /** The top of the work tree, absolute. */
  readonly top: string;
  /** The cwd relative to `top`, `""` at the top, else ending in `/`. */
  readonly prefix: string;
  /** The user's index file, absolute: only ever copied. */
  readonly index: string;
  /** The repository's own exclude file (`info/exclude`), absolute. */
  readonly exclude: string;
  /** Bytes of an object id: 20 (SHA-1) or 32 (SHA-256). */
  readonly idBytes: number;
  /** The repository's object directory, absolute: where the tracker's `git add` writes. */
  readonly objects: string;
};

/** `git rev-parse` is quick whatever the repository's size; a generous bound, not a budget. */
const LOCATE_TIMEOUT_MS = 10_000;

export const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** The work tree `cwd` is inside, or undefined when it is in none (or git can't tell). Never rejects. */
export const findWorkTree = async (cwd: string, options: ChangeTrackingOptions = {}): Promise<WorkTree | undefined> => {
  const result = await runGit({
    git: options.gitPath ?? "git",
    args: [
      "rev-parse",
      "--is-inside-work-tree",
      "--show-toplevel",
      "--show-prefix",
      "--git-path",
      "index",
      "--git-path",
      "info/exclude",
      "--show-object-format",
      "--absolute-git-dir",
      "--git-common-dir",
      "--git-path",
      "objects",
    ],
    cwd,
    env: gitEnvironment(options.env ?? process.env),
    timeoutMs: LOCATE_TIMEOUT_MS,
  });
  if (result.isErr()) return undefined;
  const [inside, top, prefix, index, exclude, format, gitDir, commonDir, objects] = result.value.toString("utf8").split("\n");
  if (inside !== "true" || top === undefined || prefix === undefined || index === undefined || exclude === undefined || objects === undefined || top === "")
    return undefined;
  // The tracker writes objects into the repository: one whose git directory lies outside its work
  // tree (a `.git` file's `gitdir:`, `core.worktree`, a linked worktree) or that borrows another's
  // objects (alternates) is followed by the scan instead, as a folder outside git.
  if (gitDir === undefined || commonDir === undefined || !within(top, gitDir) || !within(top, resolve(cwd, commonDir))) return undefined;
  if (await exists(join(resolve(cwd, commonDir), "objects", "info", "alternates"))) return undefined;
  return {
    cwd,
    top,
    prefix,
    index: resolve(cwd, index),
    exclude: resolve(cwd, exclude),
    idBytes: format === "sha256" ? 32 : 20,
    objects: resolve(cwd, objects),
  };
};

/** Whether `path` is `dir` or inside it. */
const within = (dir: string, path: string): boolean => {
  const d = resolve(dir);
  const p = resolve(path);
  return p === d || p.startsWith(d.endsWith("/") ? d : `${d}/`);
};

/** The cwd and every directory above it: where a `.git` would make it part of a work tree. */
const ancestors = (cwd: string): string[] => {
  const dirs = [resolve(cwd)];
  for (let up = dirname(dirs[0]!); up !== dirs[dirs.length - 1]; up = dirname(up)) dirs.push(up);
  return dirs;
};

/**
 * findWorkTree remembering its answers, sparing a `git rev-parse` per call: a work tree found for a
 * cwd is reused while its index file still exists and no repository was made at the cwd itself; a
 * cwd found outside git stays so while no `.git` appears in it or above it.
 */
export const workTreeFinder = (options: ChangeTrackingOptions = {}): ((cwd: string) => Promise<WorkTree | undefined>) => {
  const found = new Map<string, WorkTree | undefined>();
  const stillValid = async (tree: WorkTree): Promise<boolean> => (await exists(tree.index)) && (tree.prefix === "" || !(await exists(join(tree.cwd, ".git"))));
  const stillOutside = async (cwd: string): Promise<boolean> => {
    for (const dir of ancestors(cwd)) if (await exists(join(dir, ".git"))) return false;
    return true;
  };
  return async (cwd) => {
    if (found.has(cwd)) {
      const known = found.get(cwd);
      if (known === undefined ? await stillOutside(cwd) : await stillValid(known)) return known;
    }
    const tree = await findWorkTree(cwd, options);
    found.set(cwd, tree);
    return tree;
  };
};
