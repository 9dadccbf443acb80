/**
 * The git steps of a snapshot: stage the cwd's subtree into a temporary index and write it as a tree;
 * compare two such trees and read the blobs that differ, within the size limit and the call's budget.
 */
import { join } from "node:path";
import { err, errAsync, ok, type ResultAsync, type Result } from "neverthrow";
import type { FileDiff } from "@mm/core";
import { fileDiffsOf, type FileChange, type FileState } from "./file-diffs.js";
import { parseBatch, parseBatchCheck, parseRawDiff, type RawDiffEntry } from "./git-objects.js";
import type { TrackingLimits } from "./limits.js";
import { gitEnvironment, runGit, type GitFailure } from "./run-git.js";
import { exists, type WorkTree } from "./work-tree.js";

/** The git to run, its environment, the limits, and where temporary indexes go. */
export type GitContext = { readonly path: string; readonly env: NodeJS.ProcessEnv; readonly limits: TrackingLimits; readonly tempDir: string };

/** Options that keep git from writing anything beyond the temporary index and loose objects. */
const CONFIG = ["-c", "core.splitIndex=false", "-c", "advice.addEmbeddedRepo=false", "-c", "core.safecrlf=false", "-c", "gc.auto=0"];

/** Runs git steps against one deadline. */
const deadlineRunner = (git: GitContext, cwd: string, indexFile: string, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  const env = gitEnvironment(git.env, indexFile);
  return (args: readonly string[], input?: string): ResultAsync<Buffer, GitFailure> => {
    const left = deadline - Date.now();
    if (left <= 0) return errAsync({ timedOut: true, message: `git ${args[0] ?? ""}: over ${timeoutMs} ms` });
    const alsoOk = args[0] === "add" ? [1] : [];
    return runGit({ git: git.path, args: [...CONFIG, ...args], cwd, env, timeoutMs: left, alsoOk, ...(input === undefined ? {} : { input }) });
  };
};

const pathspecOf = (tree: WorkTree): string => (tree.prefix === "" ? "." : tree.prefix);

/**
 * Stages the cwd's subtree of the working tree into `indexFile` and writes it as a tree: the id.
 * A cwd the command removed is unstaged instead. Unmerged entries outside the cwd (a conflicted merge
 * in the user's index) block `write-tree`: the whole work tree is then staged once, which resolves them.
 */
export const writeWorkTree = async (git: GitContext, tree: WorkTree, indexFile: string, timeoutMs: number): Promise<Result<string, GitFailure>> => {
  const run = deadlineRunner(git, tree.top, indexFile, timeoutMs);
  const spec = pathspecOf(tree);
  const staged = (await exists(tree.cwd))
    ? await run(["add", "--all", "--ignore-errors", "--", spec])
    : await run(["rm", "-r", "-q", "-f", "--cached", "--ignore-unmatch", "--", spec]);
  if (staged.isErr()) return err(staged.error);
  const written = await run(["write-tree"]);
  if (written.isOk() || written.error.timedOut || tree.prefix === "") return written.map((out) => out.toString("utf8").trim());
  const all = await run(["add", "--all", "--ignore-errors", "--", "."]);
  if (all.isErr()) return err(all.error);
  return (await run(["write-tree"])).map((out) => out.toString("utf8").trim());
};

type EntryKind = "absent" | "blob" | "link" | "submodule";

const kindOf = (mode: string): EntryKind =>
  mode === "000000" ? "absent" : mode === "120000" ? "link" : mode === "160000" ? "submodule" : "blob";

const contentChanged = (entry: RawDiffEntry): boolean => entry.oldId !== entry.newId || kindOf(entry.oldMode) !== kindOf(entry.newMode);

const blobIds = (entries: readonly RawDiffEntry[]): string[] => [
  ...new Set(
    entries.flatMap((entry) => [
      ...(kindOf(entry.oldMode) === "blob" ? [entry.oldId] : []),
      ...(kindOf(entry.newMode) === "blob" ? [entry.newId] : []),
    ]),
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

const idList = (ids: Iterable<string>): string => [...ids].map((id) => `${id}\n`).join("");

/** The FileDiffs between two trees of the work tree, for paths under the cwd. */
export const diffTrees = async (git: GitContext, tree: WorkTree, indexFile: string, before: string, after: string): Promise<Result<FileDiff[], GitFailure>> => {
  if (before === after) return ok([]);
  const run = deadlineRunner(git, tree.top, indexFile, git.limits.finishTimeoutMs);
  const raw = await run(["diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-abbrev", before, after, "--", pathspecOf(tree)]);
  if (raw.isErr()) return err(raw.error);
  const entries = parseRawDiff(raw.value).filter(contentChanged);
  const ids = blobIds(entries);
  const checked = ids.length === 0 ? ok(Buffer.alloc(0)) : await run(["cat-file", "--batch-check"], idList(ids));
  if (checked.isErr()) return err(checked.error);
  const sizes = parseBatchCheck(checked.value);
  const wanted = blobsToRead(entries, sizes, git.limits);
  const read = wanted.size === 0 ? ok(Buffer.alloc(0)) : await run(["cat-file", "--batch"], idList(wanted));
  if (read.isErr()) return err(read.error);
  const contents = parseBatch(read.value);
  const changes: FileChange[] = entries.map((entry) => ({
    path: join(tree.cwd, entry.path.slice(tree.prefix.length)),
    before: stateOf(entry.oldMode, entry.oldId, sizes, contents, git.limits),
    after: stateOf(entry.newMode, entry.newId, sizes, contents, git.limits),
  }));
  return ok(fileDiffsOf(changes, git.limits));
};

