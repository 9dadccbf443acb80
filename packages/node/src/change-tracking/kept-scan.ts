/**
 * keptScan: what a folder outside git holds (every file's stamp, and the content of those within the
 * size limit), kept from one bash call to the next and brought in step at each step: a tree watcher
 * names the paths that changed, and only those are looked at again. Whatever the watcher can't vouch
 * for (too many events, a watch refused, the cwd replaced) makes the step a full scan, as before.
 * The kept content stays in memory between calls, within the same `maxSnapshotBytes`.
 */
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import type { FileDiff } from "@mm/core";
import { isHiddenRelative } from "../boundary/hidden-paths.js";
import type { TrackingLimits } from "./limits.js";
import { listDirectories } from "./list-directories.js";
import { compareScans } from "./scan-compare.js";
import { scanFile, scanTree, SKIPPED_DIRECTORIES, type ScanLimits, type ScannedEntry, type ScanOutcome } from "./scan-tree.js";
import { treeWatcher, watchBudget, type TakenChanges, type TreeWatcher } from "./tree-watcher.js";
import { lstatOrUndefined, serialQueue } from "./step-helpers.js";

/** Past this many changed paths, one full scan is as cheap as looking at each. */
const MAX_NAMED_PATHS = 1000;
/** Directories one cwd may have watched; past it every step is a full scan. */
const MAX_WATCHED_DIRECTORIES = 4096;

/** The files as they stood, and which step saw them. */
export type ScanState = { readonly entries: ReadonlyMap<string, ScannedEntry>; readonly startedMs: number; readonly step: number };

/** Why a step could not see the folder: over a limit, or over its deadline. */
export type ScanRefusal = Exclude<ScanOutcome, { kind: "done" }>;

export type KeptScan = {
  readonly cwd: string;
  /** Brings the kept state in step with the folder, within `timeoutMs`, and answers it. */
  readonly snapshot: (timeoutMs: number) => Promise<Result<ScanState, ScanRefusal>>;
  /** Brings it in step again and answers what differs from `before`. */
  readonly changesSince: (before: ScanState) => Promise<Result<FileDiff[], ScanRefusal>>;
  /** Paths under the cwd (relative) never looked at from now on: the hidden ones. */
  readonly hide: (paths: readonly string[]) => void;
  readonly close: () => void;
};

type Touched = { readonly kind: "paths"; readonly paths: readonly string[] } | { readonly kind: "all" };

const within = (dir: string, path: string): boolean => path === dir || path.startsWith(`${dir}/`);
/** A path the scan never records: under a directory it does not enter. */
const skipped = (path: string): boolean => path.split("/").some((part) => SKIPPED_DIRECTORIES.has(part));

export const keptScan = (cwd: string, limits: TrackingLimits, options: { readonly watch: boolean }): KeptScan => {
  let entries = new Map<string, ScannedEntry>();
  let contentBytes = 0;
  let startedMs = 0;
  let inStep = false;
  let step = 0;
  const maxWatched = watchBudget(MAX_WATCHED_DIRECTORIES);
  let watcher: TreeWatcher | undefined = options.watch ? treeWatcher(cwd, { maxDirectories: maxWatched }) : undefined;
  const locked = serialQueue();
  let hidden: readonly string[] = [];
  const isHidden = (path: string): boolean => isHiddenRelative(hidden, path);
  const scanLimits = (timeoutMs: number): ScanLimits => ({
    skip: isHidden,
    maxFiles: limits.maxFiles,
    maxFileBytes: limits.maxFileBytes,
    maxContentBytes: limits.maxSnapshotBytes,
    deadline: Date.now() + timeoutMs,
    withContent: true,
  });
  const kept = (entry: ScannedEntry): number => (entry.kind === "file" && entry.size <= limits.maxFileBytes ? entry.size : 0);
  const stopWatching = (): void => {
    watcher?.close();
    watcher = undefined;
  };
  const overLimits = (): ScanRefusal | undefined =>
    entries.size > limits.maxFiles
      ? { kind: "too-many-files", seen: entries.size }
      : contentBytes > limits.maxSnapshotBytes
        ? { kind: "too-much-content", bytes: contentBytes }
        : undefined;

  const watchAll = (reset: ReadonlySet<string>): void => {
    if (watcher === undefined) return;
    const listing = listDirectories(cwd, "", {
      skip: (relative, name) => SKIPPED_DIRECTORIES.has(name) || isHidden(relative),
      repositoriesApart: false,
      max: maxWatched,
    });
    if (listing.truncated || !watcher.watchOnly(listing.dirs, reset)) stopWatching();
  };

  const fullStep = async (timeoutMs: number, reset: ReadonlySet<string>): Promise<Result<Touched, ScanRefusal>> => {
    watchAll(reset);
    startedMs = Date.now();
    const outcome = await scanTree(cwd, scanLimits(timeoutMs));
    if (outcome.kind !== "done") return err(outcome);
    entries = outcome.entries;
    contentBytes = [...entries.values()].reduce((sum, entry) => sum + kept(entry), 0);
    return ok({ kind: "all" });
  };

  const forget = (path: string): void => {
    for (const [relative, entry] of entries) {
      if (!within(path, relative)) continue;
      contentBytes -= kept(entry);
      entries.delete(relative);
    }
  };

  const partialStep = async (active: TreeWatcher, taken: TakenChanges, timeoutMs: number): Promise<Result<Touched, ScanRefusal>> => {
    for (const suspect of taken.suspects) active.removeUnder(suspect);
    const paths = [...new Set([...taken.paths, ...[...taken.suspects].filter((dir) => dir !== "")])].filter(
      (path) => path !== "" && !skipped(path) && !isHidden(path),
    );
    const touched: string[] = [];
    for (const path of paths) {
      const info = lstatOrUndefined(join(cwd, path));
      if (info?.isDirectory() === true && active.watches(path, info.ino)) continue;
      touched.push(path);
      forget(path);
      if (info === undefined) {
        active.removeUnder(path);
        continue;
      }
      if (!info.isDirectory()) {
        active.removeUnder(path);
        const entry = scanFile(join(cwd, path), scanLimits(timeoutMs), contentBytes);
        if (entry !== undefined) {
          entries.set(path, entry);
          contentBytes += kept(entry);
        }
        continue;
      }
      // A directory new to the watcher: watched first, then scanned, so no change falls in between.
      const listing = listDirectories(cwd, path, {
        skip: (relative, name) => SKIPPED_DIRECTORIES.has(name) || isHidden(relative),
        repositoriesApart: false,
        max: maxWatched - active.size(),
      });
      if (listing.truncated || !active.add(listing.dirs)) {
        stopWatching();
        return fullStep(timeoutMs, new Set());
      }
      const outcome = await scanTree(
        cwd,
        { ...scanLimits(timeoutMs), maxFiles: limits.maxFiles - entries.size, maxContentBytes: limits.maxSnapshotBytes - contentBytes },
        path,
      );
      if (outcome.kind !== "done") return err(outcome);
      for (const [relative, entry] of outcome.entries) {
        entries.set(relative, entry);
        contentBytes += kept(entry);
      }
    }
    const over = overLimits();
    return over === undefined ? ok({ kind: "paths", paths: touched }) : err(over);
  };

  const bringInStep = async (timeoutMs: number): Promise<Result<Touched, ScanRefusal>> => {
    let taken: TakenChanges | undefined;
    if (watcher !== undefined) {
      await watcher.settle();
      taken = watcher.take();
    }
    const root = lstatOrUndefined(cwd);
    const rootMoved = watcher !== undefined && (root === undefined || !watcher.watches("", root.ino) || taken?.suspects.has("") === true);
    const partial = inStep && !rootMoved && watcher !== undefined && taken?.complete && taken.paths.size <= MAX_NAMED_PATHS;
    const result = partial ? await partialStep(watcher!, taken!, timeoutMs) : await fullStep(timeoutMs, taken?.suspects ?? new Set());
    inStep = result.isOk();
    if (result.isOk() && (result.value.kind === "all" || result.value.paths.length > 0)) step += 1;
    return result;
  };

  const snapshot = async (timeoutMs: number): Promise<Result<ScanState, ScanRefusal>> =>
    (await bringInStep(timeoutMs)).map(() => ({ entries: new Map(entries), startedMs, step }));

  const changesSince = async (before: ScanState): Promise<Result<FileDiff[], ScanRefusal>> => {
    const stepBefore = step;
    const brought = await bringInStep(limits.finishTimeoutMs);
    if (brought.isErr()) return err(brought.error);
    const touched = brought.value;
    if (touched.kind === "all" || before.step !== stepBefore) return ok(await compareScans(cwd, before, entries, limits));
    if (touched.paths.length === 0) return ok([]);
    // Only the named paths can differ; their stamps can't be trusted to say how (same-second rewrites).
    const named = (map: ReadonlyMap<string, ScannedEntry>) => new Map([...map].filter(([relative]) => touched.paths.some((path) => within(path, relative))));
    return ok(await compareScans(cwd, { entries: named(before.entries), startedMs: Number.NEGATIVE_INFINITY }, named(entries), limits));
  };

  return {
    cwd,
    snapshot: (timeoutMs) => locked(() => snapshot(timeoutMs)),
    changesSince: (before) => locked(() => changesSince(before)),
    hide: (paths) => {
      if (paths.join("\0") === hidden.join("\0")) return;
      hidden = paths;
      // What was kept of a path hidden now goes at the next full scan.
      inStep = false;
    },
    close: () => {
      stopWatching();
      entries = new Map();
      contentBytes = 0;
      inStep = false;
    },
  };
};
