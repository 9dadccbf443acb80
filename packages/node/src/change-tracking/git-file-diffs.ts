/**
 * From raw differences between two trees of a work tree to the FileDiffs the editor sees: blob sizes
 * first, then the contents of those within the size limit and, in path order, the call's text budget.
 */
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import type { FileDiff } from "@mm/core";
import { ownerOnlyMode } from "../system/umask.js";
import { isFailure, type CatFile } from "./cat-file.js";
import { fileDiffsOf, type FileChange, type FileState } from "./file-diffs.js";
import type { RawDiffEntry } from "./index-entries.js";
import type { TrackingLimits } from "./limits.js";
import type { GitFailure } from "./run-git.js";
import type { WorkTree } from "./work-tree.js";

type EntryKind = "absent" | "blob" | "link" | "submodule";

const kindOf = (mode: string): EntryKind => (mode === "000000" ? "absent" : mode === "120000" ? "link" : mode === "160000" ? "submodule" : "blob");

/** A mode-only change (the executable bit) is not a change of content. */
const contentChanged = (entry: RawDiffEntry): boolean => entry.oldId !== entry.newId || kindOf(entry.oldMode) !== kindOf(entry.newMode);

const blobIds = (entries: readonly RawDiffEntry[]): string[] => [
  ...new Set(
    entries.flatMap((entry) => [...(kindOf(entry.oldMode) === "blob" ? [entry.oldId] : []), ...(kindOf(entry.newMode) === "blob" ? [entry.newId] : [])]),
  ),
];

/** The blobs worth reading: within the size limit and, in path order, within the call's text budget. */
const blobsToRead = (entries: readonly RawDiffEntry[], sizes: ReadonlyMap<string, number>, limits: TrackingLimits): Set<string> => {
  const chosen = new Set<string>();
  let budget = limits.maxDiffBytes;
  for (const entry of [...entries].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const ids = blobIds([entry]).filter((id) => (sizes.get(id) ?? Infinity) <= limits.maxFileBytes);
    const cost = ids.reduce((sum, id) => sum + (chosen.has(id) ? 0 : (sizes.get(id) ?? 0)), 0);
    if (cost > budget) continue;
    budget -= cost;
    for (const id of ids) chosen.add(id);
  }
  return chosen;
};

/** Whether the command removed the entry. */
const removed = (entry: RawDiffEntry): boolean => kindOf(entry.newMode) === "absent";

/** The mode a removed entry gets back: git keeps only its executable bit, so readable by its owner only. */
const modeOf = (entry: RawDiffEntry): number => ownerOnlyMode(entry.oldMode === "100755");

/** The contents before of files too large to diff, within the before limits (for /undo); the blobs are in the object store already. */
const largerBefore = async (
  cat: CatFile,
  changed: readonly RawDiffEntry[],
  sizes: ReadonlyMap<string, number>,
  limits: TrackingLimits,
  deadline: number,
): Promise<Map<RawDiffEntry, Buffer> | GitFailure> => {
  let budget = limits.maxBeforeCallBytes;
  const wanted = changed.filter((entry) => {
    const size = kindOf(entry.oldMode) === "blob" ? sizes.get(entry.oldId) : undefined;
    if (size === undefined || size <= limits.maxFileBytes || size > limits.maxBeforeFileBytes || size > budget) return false;
    budget -= size;
    return true;
  });
  if (wanted.length === 0) return new Map();
  const read = await cat.contents(
    wanted.map((entry) => entry.oldId),
    deadline,
  );
  if (isFailure(read)) return read;
  const out = new Map<RawDiffEntry, Buffer>();
  read.forEach((object, i) => {
    if (object !== undefined) out.set(wanted[i]!, object.bytes);
  });
  return out;
};

const stateOf = (
  mode: string,
  id: string,
  sizes: ReadonlyMap<string, number>,
  contents: ReadonlyMap<string, Buffer>,
  limits: TrackingLimits,
): FileState | null => {
  const kind = kindOf(mode);
  if (kind === "absent") return null;
  if (kind === "link" || kind === "submodule") return { kind };
  const size = sizes.get(id);
  if (size !== undefined && size > limits.maxFileBytes) return { kind: "large", size };
  const bytes = contents.get(id);
  return bytes === undefined ? { kind: "omitted" } : { kind: "bytes", bytes };
};

/**
 * The FileDiffs of `entries` (paths relative to the work tree's top, all under the cwd), read before
 * `deadline`. `recorded`: the work tree's sizes the index before held (`recordedSizes`); a file whose
 * blob is of another size was converted by git as it was stored, so its blob is not its bytes and is
 * not handed over as what it held before (for /undo). `mayHaveExisted` (a path relative to the top):
 * when the ignore rules changed, whether a file new to the index may have been there, ignored.
 * `named`: entries of no content to add (ignored files removed).
 */
export const gitFileDiffs = async (
  cat: CatFile,
  tree: WorkTree,
  entries: readonly RawDiffEntry[],
  limits: TrackingLimits,
  deadline: number,
  recorded: ReadonlyMap<string, number> = new Map(),
  mayHaveExisted?: (path: string) => boolean,
  named: readonly FileDiff[] = [],
): Promise<Result<FileDiff[], GitFailure>> => {
  const changed = entries.filter(contentChanged);
  const ids = blobIds(changed);
  const infos = await cat.info(ids, deadline);
  if (isFailure(infos)) return err(infos);
  const sizes = new Map<string, number>();
  infos.forEach((info, i) => {
    if (info?.type === "blob") sizes.set(ids[i]!, info.size);
  });
  const wanted = [...blobsToRead(changed, sizes, limits)];
  const read = await cat.contents(wanted, deadline);
  if (isFailure(read)) return err(read);
  const contents = new Map<string, Buffer>();
  read.forEach((object, i) => {
    if (object !== undefined) contents.set(wanted[i]!, object.bytes);
  });
  const pathOf = (entry: RawDiffEntry): string => join(tree.cwd, entry.path.slice(tree.prefix.length));
  const changes: FileChange[] = changed.map((entry) => {
    const before = stateOf(entry.oldMode, entry.oldId, sizes, contents, limits);
    const after = stateOf(entry.newMode, entry.newId, sizes, contents, limits);
    // Git keeps only the executable bit: a file the command removed comes back readable by its owner
    // only (it may have been private); one still there keeps the mode it has.
    return { path: pathOf(entry), before: before?.kind === "bytes" && removed(entry) ? { ...before, mode: modeOf(entry) } : before, after };
  });
  const larger = await largerBefore(cat, changed, sizes, limits, deadline);
  if (isFailure(larger)) return err(larger);
  const converted = changed.filter((entry) => {
    const kept = recorded.get(entry.path);
    const size = kindOf(entry.oldMode) === "blob" ? sizes.get(entry.oldId) : undefined;
    return kept !== undefined && kept !== 0 && size !== undefined && kept !== size % 2 ** 32;
  });
  const largerKept = new Map([...larger].map(([entry, bytes]) => [pathOf(entry), removed(entry) ? { bytes, mode: modeOf(entry) } : { bytes }]));
  // The ignore rules changed: an entry new to the index may be a file git ignored until now.
  const firstSeen = new Set(
    mayHaveExisted === undefined ? [] : changed.filter((entry) => kindOf(entry.oldMode) === "absent" && mayHaveExisted(entry.path)).map(pathOf),
  );
  return ok(fileDiffsOf(changes, limits, largerKept, new Set(converted.map(pathOf)), firstSeen, named));
};
