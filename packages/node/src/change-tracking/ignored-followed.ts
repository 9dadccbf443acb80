/**
 * The untracked files and directories git ignores under a kept index's cwd (kept-index.ts), as of its
 * last step: files that exist though the index does not hold them. Listed at a full step, then brought
 * in step with the paths each step names; undefined when not known (no watcher, or too many). Shared
 * with the snapshots that hold it, so copied before a change.
 */
import { join } from "node:path";
import type { IgnoredEntries } from "./ignore-rules.js";
import { lstatOrUndefined } from "./step-helpers.js";

/** Ignored files and directories followed per cwd; past it they are not known (a call after a `.gitignore` change names more files as first seen). */
const MAX_IGNORED_FOLLOWED = 20_000;

const tooMany = (entries: IgnoredEntries): boolean => entries.files.size + entries.dirs.size > MAX_IGNORED_FOLLOWED;

export type IgnoredFollowed = {
  /** As of the last step; undefined: not known. */
  readonly current: () => IgnoredEntries | undefined;
  /** The list a full step made (not known past the limit). */
  readonly listed: (entries: IgnoredEntries) => void;
  /** Adds what a partial step listed under its new directories. */
  readonly add: (entries: IgnoredEntries) => void;
  /** After a step that named `paths` (cwd-relative): each file there the index does not hold (`held`) is ignored (or unreadable), each gone is forgotten. */
  readonly follow: (paths: readonly string[], held: (path: string) => boolean) => void;
  /** Forgets them when they grew past the limit. */
  readonly bound: () => void;
  /** The list as it stands, for a snapshot to hold: copied before the next change. */
  readonly share: () => IgnoredEntries | undefined;
  /** Not followed any more. */
  readonly forget: () => void;
};

/** Follows the ignored entries under `cwd`. */
export const ignoredFollowed = (cwd: string): IgnoredFollowed => {
  let ignored: IgnoredEntries | undefined;
  let shared = false;
  const toChange = (): IgnoredEntries | undefined => {
    if (ignored !== undefined && shared) ignored = { dirs: new Set(ignored.dirs), files: new Set(ignored.files) };
    shared = false;
    return ignored;
  };
  const follow = (paths: readonly string[], held: (path: string) => boolean): void => {
    const known = toChange();
    if (known === undefined) return;
    for (const path of paths) {
      const info = lstatOrUndefined(join(cwd, path));
      if (info === undefined) {
        known.dirs.delete(path);
        known.files.delete(path);
        for (const file of known.files) if (file.startsWith(`${path}/`)) known.files.delete(file);
        for (const dir of known.dirs) if (dir.startsWith(`${path}/`)) known.dirs.delete(dir);
      } else if (!info.isDirectory()) {
        if (held(path)) known.files.delete(path);
        else known.files.add(path);
      }
    }
  };
  return {
    current: () => ignored,
    listed: (entries) => {
      ignored = tooMany(entries) ? undefined : entries;
      shared = false;
    },
    add: (entries) => {
      const known = toChange();
      for (const dir of entries.dirs) known?.dirs.add(dir);
      for (const file of entries.files) known?.files.add(file);
    },
    follow,
    bound: () => {
      if (ignored !== undefined && tooMany(ignored)) ignored = undefined;
    },
    share: () => {
      shared = true;
      return ignored;
    },
    forget: () => {
      ignored = undefined;
    },
  };
};

/**
 * The untracked files and directories git ignored at a snapshot (`was`) gone now from `cwd`, among
 * `candidates` (the paths a step named; undefined: all of them), the hidden ones left out:
 * cwd-relative, sorted, each with whether it is a directory.
 */
export const ignoredGone = (
  cwd: string,
  was: IgnoredEntries | undefined,
  candidates: readonly string[] | undefined,
  isHidden: (path: string) => boolean,
): [string, boolean][] => {
  if (was === undefined || was.files.size + was.dirs.size === 0) return [];
  const gone = new Map<string, boolean>();
  const check = (path: string, dir: boolean): void => {
    if (!isHidden(path) && lstatOrUndefined(join(cwd, path)) === undefined) gone.set(path, dir);
  };
  if (candidates === undefined) {
    for (const file of was.files) check(file, false);
    for (const dir of was.dirs) check(dir, true);
  } else
    for (const path of candidates) {
      if (was.files.has(path)) check(path, false);
      else if (was.dirs.has(path)) check(path, true);
      else if (lstatOrUndefined(join(cwd, path)) === undefined) {
        for (const file of was.files) if (file.startsWith(`${path}/`)) check(file, false);
        for (const dir of was.dirs) if (dir.startsWith(`${path}/`)) check(dir, true);
      }
    }
  return [...gone].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
};

/**
 * Margin on "changed before the call": a file's ctime comes from the kernel's coarse clock, a tick or
 * so behind the one `Date.now()` reads.
 */
const RACY_MS = 100;

/**
 * Whether the entry at `path` last changed (its ctime, which no command can set back) before a
 * snapshot taken at `takenMs`: an ignored file a rules change uncovered, not touched by the call.
 * False when it cannot be told.
 */
export const changedBeforeSnapshot = (path: string, takenMs: number): boolean => {
  const info = lstatOrUndefined(path);
  return info !== undefined && info.ctimeMs < takenMs - RACY_MS;
};
