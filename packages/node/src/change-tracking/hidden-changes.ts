/**
 * The hidden paths under a tracked cwd (boundary/hidden-paths.ts: the sandbox's set), kept out of
 * what a tracker reports: never read, hashed, staged or diffed, whatever the tracker underneath saw;
 * one that changed is named, its content never shown, from its `lstat` alone.
 */
import { lstatSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import type { ChangeSnapshot, FileDiff } from "@mm/core";
import { hiddenStamp, isHiddenRelative } from "../boundary/hidden-paths.js";

/** The note of a hidden path that changed: named, content not shown. */
export const hiddenNote = (verb: "created" | "changed" | "deleted"): string => `file ${verb}, not shown: a hidden path (content never read)`;

/** The stamps of `hidden` (relative to `cwd`) now. */
export const hiddenStamps = (cwd: string, hidden: readonly string[]): ReadonlyMap<string, string> =>
  new Map(hidden.map((path) => [path, hiddenStamp(join(cwd, path))]));

/** The note of a path that is a hidden file under another name (moved or linked there). */
export const MOVED_HIDDEN_NOTE = "file changed, not shown: a hidden file under another name (moved or linked here; content never shown)";

/** Files the inodes of hidden files are looked for among, at most (as a hidden directory's stamp). */
const MAX_HIDDEN_FILES = 2000;

const inodeOf = (path: string): string | undefined => {
  try {
    const info = lstatSync(path);
    return info.isFile() ? `${info.dev}:${info.ino}` : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The regular files at or under the hidden paths (relative to `cwd`), by device and inode: a command
 * that renames one (`mv .env .env.old`, sandbox off) or links it (`ln .env x`) leaves the same inode
 * under a name that is not hidden. (A copy is another file: indistinguishable, see decisions.)
 */
export const hiddenInodes = (cwd: string, hidden: readonly string[]): ReadonlySet<string> => {
  const found = new Set<string>();
  const paths = hidden.map((path) => join(cwd, path));
  for (let path = paths.pop(), seen = 0; path !== undefined && seen < MAX_HIDDEN_FILES; path = paths.pop(), seen++) {
    const inode = inodeOf(path);
    if (inode !== undefined) found.add(inode);
    else {
      try {
        if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) paths.push(join(path, name));
      } catch {
        // Gone or unreadable: nothing to look for.
      }
    }
  }
  return found;
};

const verbOf = (before: string, after: string): "created" | "changed" | "deleted" =>
  before === "absent" ? "created" : after === "absent" ? "deleted" : "changed";

/**
 * `snapshot` with the hidden paths under `cwd` (relative, `stamps` their state at `begin`) taken out
 * of its diffs and its before-states, and each one whose stamp moved named with {@link hiddenNote}.
 */
export const withHiddenNamed = (cwd: string, hidden: readonly string[], stamps: ReadonlyMap<string, string>, snapshot: ChangeSnapshot): ChangeSnapshot => {
  if (hidden.length === 0) return snapshot;
  // Taken at `begin`, before the command runs.
  const inodes = hiddenInodes(cwd, hidden);
  // Paths the command left a hidden file at, under a name that is not hidden (found by `finish`).
  const moved = new Set<string>();
  const isHidden = (path: string): boolean => {
    if (moved.has(path)) return true;
    const inner = relative(cwd, path);
    return !inner.startsWith("..") && isHiddenRelative(hidden, inner);
  };
  const finish: ChangeSnapshot["finish"] = () =>
    snapshot.finish().map((diffs) => {
      const named: FileDiff[] = [];
      for (const [path, before] of stamps) {
        const after = hiddenStamp(join(cwd, path));
        if (after !== before) named.push({ path: join(cwd, path), oldText: null, newText: null, note: hiddenNote(verbOf(before, after)) });
      }
      const shown = diffs
        .filter((diff) => !isHidden(diff.path))
        .map((diff): FileDiff => {
          const inode = inodes.size === 0 ? undefined : inodeOf(diff.path);
          if (inode === undefined || !inodes.has(inode)) return diff;
          moved.add(diff.path);
          return { path: diff.path, oldText: null, newText: null, note: MOVED_HIDDEN_NOTE };
        });
      return [...shown, ...named].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    });
  const before = snapshot.before;
  return {
    finish,
    ...(before !== undefined ? { before: (path: string) => (isHidden(path) ? undefined : before(path)) } : {}),
    hidden: isHidden,
  };
};
