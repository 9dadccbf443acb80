/**
 * scanChangeTracker: the ChangeTracker port for a cwd outside git. `begin` walks the subtree and keeps
 * every file's stamp (size, mtime, ctime, inode) and the content of those within the size limit;
 * `finish` walks again, reads only the files whose stamp moved (or that were modified within a second
 * of the first walk, whose stamp can't be trusted) and compares. `.git`, `.hg`, `.svn` and
 * `node_modules` directories are not entered.
 *
 * Bounded: more than `maxFiles` files, more than `maxSnapshotBytes` of content or a walk over
 * `beginBudgetMs` makes the cwd `unavailable`, and stays so for this tracker. A file over the size
 * limit is reported when its stamp moved, with a note.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { err, ok, ResultAsync, type Result } from "neverthrow";
import type { ChangeSnapshot, ChangeTracker, ChangeTrackingError, FileDiff } from "@mm/core";
import { fileDiffsOf, sizeText, type FileChange, type FileState } from "./change-tracking/file-diffs.js";
import { limitsOf, type ChangeTrackingOptions, type TrackingLimits } from "./change-tracking/limits.js";
import { scanTree, type ScannedEntry, type ScanOutcome } from "./change-tracking/scan-tree.js";

/** Files touched this close before the first walk are compared by content, whatever their stamp. */
const RACY_MS = 1000;

const failed = (reason: string): ChangeTrackingError => ({ kind: "failed", reason });
const unavailable = (reason: string): ChangeTrackingError => ({ kind: "unavailable", reason });

const refusal = (cwd: string, outcome: Exclude<ScanOutcome, { kind: "done" }>, limits: TrackingLimits): string => {
  switch (outcome.kind) {
    case "too-many-files":
      return `${cwd} is too large to watch: over ${limits.maxFiles} files outside git`;
    case "too-much-content":
      return `${cwd} is too large to watch: over ${sizeText(limits.maxSnapshotBytes)} of files outside git`;
    case "too-slow":
      return `${cwd} is too large to watch: a scan takes over ${limits.beginBudgetMs} ms (${outcome.seen} files seen)`;
  }
};

const stateBefore = (entry: ScannedEntry, limits: TrackingLimits): FileState => {
  if (entry.kind === "link") return { kind: "link" };
  if (entry.content !== undefined) return { kind: "bytes", bytes: entry.content };
  return entry.size > limits.maxFileBytes ? { kind: "large", size: entry.size } : { kind: "unreadable" };
};

/** Reads what a path holds after the command. */
const stateAfter = async (path: string, entry: ScannedEntry, limits: TrackingLimits): Promise<FileState | null> => {
  if (entry.kind === "link") return { kind: "link" };
  if (entry.size > limits.maxFileBytes) return { kind: "large", size: entry.size };
  const bytes = await readFile(path).catch((error: unknown) => (vanished(error) ? null : undefined));
  if (bytes === null) return null;
  if (bytes === undefined) return { kind: "unreadable" };
  return bytes.length > limits.maxFileBytes ? { kind: "large", size: bytes.length } : { kind: "bytes", bytes };
};

const textSize = (state: FileState | null): number => (state?.kind === "bytes" ? state.bytes.length : 0);

/** The change as kept: its texts while the call's budget lasts, else `omitted` in their place. */
const withinBudget = (change: FileChange, budget: { left: number }): FileChange => {
  const size = textSize(change.before) + textSize(change.after);
  if (size <= budget.left) {
    budget.left -= size;
    return change;
  }
  const omit = (state: FileState | null): FileState | null => (state?.kind === "bytes" ? { kind: "omitted" } : state);
  return { path: change.path, before: omit(change.before), after: omit(change.after) };
};

const vanished = (error: unknown): boolean => typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT";

const sameState = (a: FileState | null, b: FileState | null): boolean =>
  a?.kind === "bytes" && b?.kind === "bytes" ? a.bytes.equals(b.bytes) : a === null && b === null;

type Snapshot = { readonly entries: ReadonlyMap<string, ScannedEntry>; readonly startedMs: number };

const compare = async (cwd: string, before: Snapshot, after: ReadonlyMap<string, ScannedEntry>, limits: TrackingLimits): Promise<FileDiff[]> => {
  const changes: FileChange[] = [];
  const budget = { left: limits.maxDiffBytes };
  const add = (change: FileChange): void => {
    changes.push(withinBudget(change, budget));
  };
  for (const [relative, entry] of before.entries) {
    if (!after.has(relative)) add({ path: join(cwd, relative), before: stateBefore(entry, limits), after: null });
  }
  for (const [relative, now] of after) {
    const path = join(cwd, relative);
    const then = before.entries.get(relative);
    if (then === undefined) {
      const created = now.kind === "file" && now.size > budget.left && now.size <= limits.maxFileBytes ? { kind: "omitted" as const } : await stateAfter(path, now, limits);
      if (created !== null) add({ path, before: null, after: created });
      continue;
    }
    if (then.kind === "link" && now.kind === "link") {
      if (then.target !== now.target) add({ path, before: { kind: "link" }, after: { kind: "link" } });
      continue;
    }
    const sameStamp = then.kind === "file" && now.kind === "file" && then.stamp === now.stamp;
    if (sameStamp && then.touchedMs < before.startedMs - RACY_MS) continue;
    const old = stateBefore(then, limits);
    if (sameStamp && old.kind !== "bytes") continue;
    const current = await stateAfter(path, now, limits);
    if (!sameState(old, current)) add({ path, before: old, after: current });
  }
  return fileDiffsOf(changes, limits);
};

const scanLimits = (limits: TrackingLimits, withContent: boolean, timeoutMs: number) => ({
  maxFiles: limits.maxFiles,
  maxFileBytes: limits.maxFileBytes,
  maxContentBytes: limits.maxSnapshotBytes,
  deadline: Date.now() + timeoutMs,
  withContent,
});

const snapshotOf = (cwd: string, before: Snapshot, limits: TrackingLimits): ChangeSnapshot => {
  let finished = false;
  const finish = async (): Promise<Result<readonly FileDiff[], ChangeTrackingError>> => {
    if (finished) return err(failed("this snapshot is already finished"));
    finished = true;
    const outcome = await scanTree(cwd, scanLimits(limits, false, limits.finishTimeoutMs));
    if (outcome.kind === "done") return ok(await compare(cwd, before, outcome.entries, limits));
    if (outcome.kind === "too-slow") return err(failed(`scanning ${cwd} took over ${limits.finishTimeoutMs} ms`));
    return err(failed(`${cwd} now holds over ${limits.maxFiles} files`));
  };
  return { finish: () => new ResultAsync(finish().catch((error: unknown) => err(failed(String(error))))) };
};

/** The ChangeTracker on a bounded scan of the cwd's subtree (for cwds outside git). */
export const scanChangeTracker = (options: ChangeTrackingOptions = {}): ChangeTracker => {
  const limits = limitsOf(options);
  const refused = new Map<string, string>();
  const begin = async (cwd: string): Promise<Result<ChangeSnapshot, ChangeTrackingError>> => {
    const known = refused.get(cwd);
    if (known !== undefined) return err(unavailable(known));
    const startedMs = Date.now();
    const outcome = await scanTree(cwd, scanLimits(limits, true, limits.beginBudgetMs));
    if (outcome.kind === "done") return ok(snapshotOf(cwd, { entries: outcome.entries, startedMs }, limits));
    const reason = refusal(cwd, outcome, limits);
    refused.set(cwd, reason);
    return err(unavailable(reason));
  };
  return {
    begin: (cwd) => new ResultAsync(begin(cwd).catch((error: unknown) => err(unavailable(`cannot scan ${cwd}: ${String(error)}`)))),
  };
};
