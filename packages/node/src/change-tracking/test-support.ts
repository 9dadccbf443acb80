/** Fixtures of the change tracker tests: temp directories, git repositories, shell commands. */
import { execFileSync } from "node:child_process";
import { lstatSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ChangeTracker, FileDiff } from "@mm/core";
import { FIRST_SEEN_NOTE, IGNORED_GONE_NOTE } from "./file-diffs.js";

export const sh = (cwd: string, command: string): string => execFileSync("bash", ["-c", command], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

export const writeFiles = async (root: string, files: Record<string, string | Buffer>): Promise<void> => {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
};

/** A fresh temp directory; `cleanUp` removes every one made. */
export const tempDirs = () => {
  const made: string[] = [];
  return {
    make: async (name = "mm-ct-"): Promise<string> => {
      const dir = await mkdtemp(join(tmpdir(), name));
      made.push(dir);
      return dir;
    },
    cleanUp: async (): Promise<void> => {
      await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
    },
  };
};

/** A git repository holding `files`, committed. */
export const gitRepo = async (dir: string, files: Record<string, string | Buffer>): Promise<string> => {
  git(dir, "init", "-q");
  await writeFiles(dir, files);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "init");
  return dir;
};

/** What a tracker reports around `command` run by bash in `cwd`. */
export const diffsOf = async (changes: ChangeTracker, cwd: string, command: string): Promise<readonly FileDiff[]> => {
  const snapshot = (await changes.begin(cwd))._unsafeUnwrap();
  sh(cwd, command);
  return (await snapshot.finish())._unsafeUnwrap();
};

/** The diffs of a creation, a change and a deletion. */
export const created = (path: string, text: string): FileDiff => ({ path, oldText: null, newText: text });
export const changed = (path: string, oldText: string, newText: string): FileDiff => ({ path, oldText, newText });
export const deleted = (path: string, text: string): FileDiff => ({ path, oldText: text, newText: null });
/** A file seen for the first time once the ignore rules changed (it may have been there, ignored). */
export const firstSeen = (path: string): FileDiff => ({ path, oldText: null, newText: null, note: FIRST_SEEN_NOTE });

/**
 * Waits until every one of `paths` (under `root`) last changed (ctime) over `ms` ago, so a tracker
 * tells it from one a call touched.
 */
export const settled = async (root: string, paths: readonly string[], ms = 300): Promise<void> => {
  const oldEnough = (): boolean => paths.every((path) => lstatSync(join(root, path)).ctimeMs < Date.now() - ms);
  while (!oldEnough()) await new Promise((resolve) => setTimeout(resolve, 50));
};

/** An untracked file git ignores, removed: named, its content never kept. */
export const ignoredGone = (path: string): FileDiff => ({ path, oldText: null, newText: null, note: IGNORED_GONE_NOTE });
