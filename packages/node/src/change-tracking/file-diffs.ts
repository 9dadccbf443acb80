/**
 * From what a path held before and after a command to the FileDiff the editor sees: texts for small
 * UTF-8 files, a note naming binary, large, linked and submodule entries, and a per-call budget on
 * the total of texts kept.
 */
import { sizeText, type FileDiff, type KeptFile } from "@mm/core";
import type { TrackingLimits } from "./limits.js";

/** What one path held at one moment; null (in a FileChange) when it held nothing. */
export type FileState =
  /** A file's bytes, and its permission bits when they were seen (handed over with them for /undo). */
  | { readonly kind: "bytes"; readonly bytes: Buffer; readonly mode?: number }
  | { readonly kind: "large"; readonly size: number }
  | { readonly kind: "link" }
  | { readonly kind: "submodule" }
  /** Known to differ, content not read: the call's text budget was spent. */
  | { readonly kind: "omitted" }
  /** Content could not be read (permissions). */
  | { readonly kind: "unreadable" };

export type FileChange = { readonly path: string; readonly before: FileState | null; readonly after: FileState | null };

/** How much of the start of a file is searched for a NUL byte to call it binary (git's heuristic). */
const SNIFF_BYTES = 8000;

export const isBinary = (bytes: Buffer): boolean => bytes.subarray(0, SNIFF_BYTES).includes(0);

const verbOf = (change: FileChange): string => (change.before === null ? "created" : change.after === null ? "deleted" : "changed");

const noteOf = (change: FileChange, limits: TrackingLimits, overBudget: boolean): string | undefined => {
  const verb = verbOf(change);
  const states = [change.before, change.after].filter((state): state is FileState => state !== null);
  const has = (kind: FileState["kind"]): boolean => states.some((state) => state.kind === kind);
  if (has("submodule")) return `submodule ${verb}`;
  if (has("link")) return `symbolic link ${verb}`;
  if (has("large")) return `file ${verb}, not shown: larger than ${sizeText(limits.maxFileBytes)}`;
  if (has("unreadable")) return `file ${verb}, not shown: not readable`;
  if (states.some((state) => state.kind === "bytes" && isBinary(state.bytes))) return `binary file ${verb}, not shown`;
  if (overBudget || has("omitted")) return `file ${verb}, not shown: this command's diffs are over ${sizeText(limits.maxDiffBytes)}`;
  return undefined;
};

const textOf = (state: FileState | null): string | null => (state?.kind === "bytes" ? state.bytes.toString("utf8") : null);

const textBytes = (change: FileChange): number =>
  [change.before, change.after].reduce((sum, state) => sum + (state?.kind === "bytes" ? state.bytes.length : 0), 0);

/**
 * The note of a file the tracker sees for the first time after the rules of what it ignores changed
 * (a `.gitignore` rewritten): it may have been there all along, so it is not shown as made, and
 * `/undo` does not remove it.
 */
export const FIRST_SEEN_NOTE =
  "file seen for the first time, not shown: git ignored it until this command changed what git ignores (it may have existed before)";

/** The note of an untracked file git ignores that a command removed (or renamed away): its content was never kept. */
export const IGNORED_GONE_NOTE = "file deleted, not shown: git ignores it, so its content was not kept";
/** The note of a directory git ignores that a command removed (or renamed away): nothing in it was kept. */
export const IGNORED_DIRECTORY_GONE_NOTE = "directory deleted, not shown: git ignores it, so nothing in it was kept";

/** What the paths of a result of {@link fileDiffsOf} held before, when read: bytes (and mode), or null when absent. */
const beforeStates = new WeakMap<readonly FileDiff[], ReadonlyMap<string, KeptFile | null>>();

/**
 * What the paths of `diffs` (a result of {@link fileDiffsOf}) held before: bytes, null when absent; a
 * path not in it was not read. Taken once: the diffs live on in the history, the bytes must not.
 */
export const takeBeforeStates = (diffs: readonly FileDiff[]): ReadonlyMap<string, KeptFile | null> => {
  const states = beforeStates.get(diffs);
  beforeStates.delete(diffs);
  return states ?? new Map();
};

/**
 * The FileDiffs of `changes`, sorted by path; texts kept in that order while within `maxDiffBytes`.
 * The states before that were read (and `larger`'s) are kept for {@link takeBeforeStates}, but those
 * of `notBytes` (paths whose state read is not their bytes: git converted them as it stored them) and
 * of `firstSeen` (files that may have existed, ignored: named with {@link FIRST_SEEN_NOTE}). `named`:
 * entries added as they are (no state before: ignored files removed).
 */
export const fileDiffsOf = (
  changes: readonly FileChange[],
  limits: TrackingLimits,
  larger: ReadonlyMap<string, KeptFile> = new Map(),
  notBytes: ReadonlySet<string> = new Set(),
  firstSeen: ReadonlySet<string> = new Set(),
  named: readonly FileDiff[] = [],
): FileDiff[] => {
  const diffs = [
    ...diffsOf(changes, limits).map((diff) => (firstSeen.has(diff.path) ? { path: diff.path, oldText: null, newText: null, note: FIRST_SEEN_NOTE } : diff)),
    ...named,
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // What was read before of files too large to diff (`larger`), then what the diffs read.
  const before = new Map<string, KeptFile | null>(larger);
  for (const change of changes) {
    // Nothing there before: known, whatever was made (a link made is no loss; /undo leaves it, named).
    if (change.before === null) before.set(change.path, null);
    // A link or a submodule replaced or removed: no state before is handed over (not restorable).
    else if ([change.before, change.after].some((state) => state?.kind === "link" || state?.kind === "submodule")) continue;
    else if (change.before.kind === "bytes")
      before.set(change.path, change.before.mode === undefined ? { bytes: change.before.bytes } : { bytes: change.before.bytes, mode: change.before.mode });
  }
  for (const path of [...notBytes, ...firstSeen]) before.delete(path);
  beforeStates.set(diffs, before);
  return diffs;
};

const diffsOf = (changes: readonly FileChange[], limits: TrackingLimits): FileDiff[] => {
  let spent = 0;
  return [...changes]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((change) => {
      const size = textBytes(change);
      const note = noteOf(change, limits, spent + size > limits.maxDiffBytes);
      if (note !== undefined) return { path: change.path, oldText: null, newText: null, note };
      spent += size;
      return { path: change.path, oldText: textOf(change.before), newText: textOf(change.after) };
    });
};
