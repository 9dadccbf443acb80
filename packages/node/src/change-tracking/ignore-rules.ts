/**
 * What decides which files git ignores under a kept index (kept-index.ts), followed between calls:
 * the tracked-but-ignored files of the user's index (`git add -f`), the exclude files outside the work
 * tree (`.git/info/exclude`, the global excludes file), and the directories git ignores.
 */
import { lstatSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import type { GitContext, GitSteps } from "./git-runner.js";
import { gitEnvironment, runGit, type GitFailure } from "./run-git.js";
import { exists, type WorkTree } from "./work-tree.js";

/** A file's stamp (size, mtime, ctime, inode), or "absent". */
const stampOf = (path: string): string => {
  try {
    const info = lstatSync(path, { bigint: true });
    return `${info.size}:${info.mtimeNs}:${info.ctimeNs}:${info.ino}`;
  } catch {
    return "absent";
  }
};

/** Untracked entries git ignores (cwd-relative): directories ignored whole, and files. */
export type IgnoredEntries = { readonly dirs: Set<string>; readonly files: Set<string> };

/** Whether `path` (cwd-relative) is among `ignored`, or under one of its directories. */
export const amongIgnored = (ignored: IgnoredEntries, path: string): boolean => {
  if (ignored.files.has(path)) return true;
  for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) if (ignored.dirs.has(path.slice(0, slash))) return true;
  return ignored.dirs.has(path);
};

/** The ignore rules of `tree` as last looked at. */
export const ignoreRules = (git: GitContext, tree: WorkTree) => {
  let user: { readonly stamp: string; readonly ignoredTracked: string } | undefined;
  let excludes: { readonly files: readonly string[]; stamp: string } | undefined;

  /** Tracked files the excludes would ignore, as git lists them from the user's index. */
  const userIgnoredTracked = async (timeoutMs: number): Promise<Result<string, GitFailure>> => {
    if (!(await exists(tree.index))) return ok("");
    const listed = await runGit({
      git: git.path,
      args: ["ls-files", "-z", "-c", "-i", "--exclude-standard"],
      cwd: tree.top,
      env: gitEnvironment(git.env, tree.index),
      timeoutMs,
    });
    return listed.map((out) => out.toString("utf8"));
  };

  /** Whether the user's index's tracked-but-ignored files changed since the last look (the first look: no). */
  const userIndexChanged = async (timeoutMs: number): Promise<Result<boolean, GitFailure>> => {
    const stamp = stampOf(tree.index);
    if (user?.stamp === stamp) return ok(false);
    const listed = await userIgnoredTracked(timeoutMs);
    if (listed.isErr()) return err(listed.error);
    const changed = user !== undefined && user.ignoredTracked !== listed.value;
    user = { stamp, ignoredTracked: listed.value };
    return ok(changed);
  };

  const excludeStamp = (files: readonly string[]): string => files.map(stampOf).join("|");

  /** Whether an exclude file outside the work tree changed since the last full step. */
  const excludesMoved = (): boolean => excludes === undefined || excludeStamp(excludes.files) !== excludes.stamp;

  /** Notes the exclude files as they are now (at a full step). */
  const recordExcludes = async (steps: GitSteps): Promise<void> => {
    if (excludes === undefined) {
      const configured = await steps.run(["config", "-z", "--path", "--get", "core.excludesFile"]);
      const xdg = git.env.XDG_CONFIG_HOME ?? join(git.env.HOME ?? homedir(), ".config");
      const global = configured.isOk() ? configured.value.toString("utf8").replace(/\0$/, "") : join(xdg, "git", "ignore");
      excludes = { files: [tree.exclude, global], stamp: "" };
    }
    excludes.stamp = excludeStamp(excludes.files);
  };

  /**
   * What git ignores under these pathspecs, untracked (cwd-relative): the directories it ignores
   * whole (no trailing slash) and the files.
   */
  const ignoredUnder = async (steps: GitSteps, specs: readonly string[]): Promise<Result<IgnoredEntries, GitFailure>> => {
    const listed = await steps.run(["ls-files", "-z", "-o", "-i", "--directory", "--exclude-standard", "--", ...specs]);
    return listed.map((out) => {
      const dirs = new Set<string>();
      const files = new Set<string>();
      for (const path of out.toString("utf8").split("\0")) {
        if (path === "" || !path.startsWith(tree.prefix)) continue;
        if (path.endsWith("/")) dirs.add(path.slice(tree.prefix.length, -1));
        else files.add(path.slice(tree.prefix.length));
      }
      return { dirs, files };
    });
  };

  /** The `.gitignore` files above the cwd, up to the top (those under it are in the index's entries). */
  const above = tree.prefix
    .split("/")
    .filter((part) => part !== "")
    .map((_, i, parts) => join(tree.top, ...parts.slice(0, i), ".gitignore"));

  /**
   * A stamp of what ignores files besides the `.gitignore` files under the cwd: the exclude files
   * and the `.gitignore` files above the cwd. A change between two looks can make ignored files
   * visible (files that existed before, not made since).
   */
  const stamp = (): string => [tree.exclude, ...(excludes?.files.slice(1) ?? []), ...above].map(stampOf).join("|");

  return { userIndexChanged, excludesMoved, recordExcludes, ignoredUnder, stamp };
};
