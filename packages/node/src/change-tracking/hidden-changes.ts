/**
 * The hidden paths under a tracked cwd (boundary/hidden-paths.ts: the sandbox's set), kept out of
 * what a tracker reports: never read, hashed, staged or diffed, whatever the tracker underneath saw;
 * one that changed is named, its content never shown, from its `lstat` alone.
 */
import { join, relative } from "node:path";
import type { ChangeSnapshot, FileDiff } from "@mm/core";
import { hiddenStamp, isHiddenRelative } from "../boundary/hidden-paths.js";

/** The note of a hidden path that changed: named, content not shown. */
export const hiddenNote = (verb: "created" | "changed" | "deleted"): string => `file ${verb}, not shown: a hidden path (content never read)`;

/** The stamps of `hidden` (relative to `cwd`) now. */
export const hiddenStamps = (cwd: string, hidden: readonly string[]): ReadonlyMap<string, string> =>
  new Map(hidden.map((path) => [path, hiddenStamp(join(cwd, path))]));

const verbOf = (before: string, after: string): "created" | "changed" | "deleted" =>
  before === "absent" ? "created" : after === "absent" ? "deleted" : "changed";

/**
 * `snapshot` with the hidden paths under `cwd` (relative, `stamps` their state at `begin`) taken out
 * of its diffs and its before-states, and each one whose stamp moved named with {@link hiddenNote}.
 */
export const withHiddenNamed = (cwd: string, hidden: readonly string[], stamps: ReadonlyMap<string, string>, snapshot: ChangeSnapshot): ChangeSnapshot => {
  if (hidden.length === 0) return snapshot;
  const isHidden = (path: string): boolean => {
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
      return [...diffs.filter((diff) => !isHidden(diff.path)), ...named].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    });
  const before = snapshot.before;
  return {
    finish,
    ...(before !== undefined ? { before: (path: string) => (isHidden(path) ? undefined : before(path)) } : {}),
    hidden: isHidden,
  };
};
