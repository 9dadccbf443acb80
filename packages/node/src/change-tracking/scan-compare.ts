/**
 * What changed between two scans of a folder (outside git): stamps first, content where a stamp moved
 * or can't be trusted, texts within the call's budget.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FileDiff } from "@mm/core";
import { fileDiffsOf, type FileChange, type FileState } from "./file-diffs.js";
import type { TrackingLimits } from "./limits.js";
import type { ScannedEntry } from "./scan-tree.js";

/** Files touched this close before the first walk are compared by content, whatever their stamp. */
const RACY_MS = 1000;

const stateBefore = (entry: ScannedEntry, limits: TrackingLimits): FileState => {
  if (entry.kind === "link") return { kind: "link" };
  if (entry.content !== undefined) return { kind: "bytes", bytes: entry.content, mode: entry.mode };
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

/** Files as a scan saw them, and when that scan started (ms since the epoch). */
export type ScanSnapshot = { readonly entries: ReadonlyMap<string, ScannedEntry>; readonly startedMs: number };

/**
 * The FileDiffs between two scans of `cwd`: a file whose stamp is unchanged and older than the first
 * scan by over a second is taken as unchanged; any other is read again and compared by content.
 */
export const compareScans = async (
  cwd: string,
  before: ScanSnapshot,
  after: ReadonlyMap<string, ScannedEntry>,
  limits: TrackingLimits,
): Promise<FileDiff[]> => {
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
      const created =
        now.kind === "file" && now.size > budget.left && now.size <= limits.maxFileBytes ? { kind: "omitted" as const } : await stateAfter(path, now, limits);
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
