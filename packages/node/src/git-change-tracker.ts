/**
 * gitChangeTracker: the ChangeTracker port in a git work tree. A snapshot is a tree object of the
 * working tree under the cwd, built in a private temporary index (seeded with a copy of the user's
 * index so `git add` only rehashes files whose stat changed): `git add --all -- <cwd>` then
 * `git write-tree`, before and after the command; `git diff-tree` names what differs, `git cat-file`
 * reads the old and new blobs of those paths only.
 *
 * What it guarantees: the user's index, refs, HEAD and config are never written (the temporary index
 * lives in a temp directory removed by `finish`); no commit is made. What it costs: blobs of new and
 * changed files, and tree objects, land in the object store as loose objects (`git gc` prunes them).
 * What it sees is what `git add` sees: ignored files that are not tracked are invisible, contents are
 * as git stores them (clean filters and end-of-line conversion applied), a mode-only change is not
 * reported, a symbolic link or a submodule is named with a note.
 */
import { copyFile, mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import type { ChangeSnapshot, ChangeTracker, ChangeTrackingError, FileDiff } from "@mm/core";
import { diffTrees, writeWorkTree, type GitContext } from "./change-tracking/git-trees.js";
import { limitsOf, type ChangeTrackingOptions, type TrackingLimits } from "./change-tracking/limits.js";
import { workTreeFinder, type WorkTree } from "./change-tracking/work-tree.js";

export { findWorkTree, workTreeFinder, type WorkTree } from "./change-tracking/work-tree.js";

const failed = (reason: string): ChangeTrackingError => ({ kind: "failed", reason });
const unavailable = (reason: string): ChangeTrackingError => ({ kind: "unavailable", reason });

const indexEntryCount = async (index: string): Promise<number | undefined> => {
  const handle = await open(index, "r").catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const header = Buffer.alloc(12);
    const { bytesRead } = await handle.read(header, 0, 12, 0);
    return bytesRead === 12 && header.toString("latin1", 0, 4) === "DIRC" ? header.readUInt32BE(8) : undefined;
  } finally {
    await handle.close();
  }
};

const snapshotOf = (git: GitContext, tree: WorkTree, tempDir: string, indexFile: string, before: string): ChangeSnapshot => {
  let finished = false;
  const finish = async (): Promise<Result<readonly FileDiff[], ChangeTrackingError>> => {
    if (finished) return err(failed("this snapshot is already finished"));
    finished = true;
    try {
      const after = await writeWorkTree(git, tree, indexFile, git.limits.finishTimeoutMs);
      if (after.isErr()) return err(failed(after.error.message));
      return (await diffTrees(git, tree, indexFile, before, after.value)).mapErr((failure) => failed(failure.message));
    } finally {
      await rm(tempDir, { recursive: true, force: true });
    }
  };
  return { finish: () => new ResultAsync(finish().catch((error: unknown) => err(failed(String(error))))) };
};

const tooSlow = async (tree: WorkTree, limits: TrackingLimits): Promise<string> => {
  const count = await indexEntryCount(tree.index);
  const files = count === undefined ? "" : ` (${count.toLocaleString("en-US")} file${count === 1 ? "" : "s"} in the index)`;
  return `${tree.cwd} is too large to watch: a git snapshot takes over ${limits.beginBudgetMs} ms${files}`;
};

/** Snapshots work trees; a cwd once over the budget is refused at once from then on. */
export type GitSnapshotter = { readonly begin: (tree: WorkTree) => ResultAsync<ChangeSnapshot, ChangeTrackingError> };

export const gitSnapshotter = (options: ChangeTrackingOptions = {}): GitSnapshotter => {
  const git: GitContext = {
    path: options.gitPath ?? "git",
    env: options.env ?? process.env,
    limits: limitsOf(options),
    tempDir: options.tempDir ?? tmpdir(),
  };
  const refused = new Map<string, string>();
  const snapshot = async (tree: WorkTree, tempDir: string): Promise<Result<ChangeSnapshot, ChangeTrackingError>> => {
    const indexFile = join(tempDir, "index");
    await copyFile(tree.index, indexFile).catch(() => undefined);
    const written = await writeWorkTree(git, tree, indexFile, git.limits.beginBudgetMs);
    if (written.isOk()) return ok(snapshotOf(git, tree, tempDir, indexFile, written.value));
    if (!written.error.timedOut) return err(unavailable(written.error.message));
    const reason = await tooSlow(tree, git.limits);
    refused.set(tree.cwd, reason);
    return err(unavailable(reason));
  };
  const begin = async (tree: WorkTree): Promise<Result<ChangeSnapshot, ChangeTrackingError>> => {
    const known = refused.get(tree.cwd);
    if (known !== undefined) return err(unavailable(known));
    const tempDir = await mkdtemp(join(git.tempDir, "mm-changes-"));
    const result = await snapshot(tree, tempDir).catch((error: unknown) => err(unavailable(String(error))));
    if (result.isErr()) await rm(tempDir, { recursive: true, force: true });
    return result;
  };
  return { begin: (tree) => new ResultAsync(begin(tree).catch((error: unknown) => err(unavailable(String(error))))) };
};

/** The ChangeTracker for cwds inside a git work tree; any other cwd is `unavailable`. */
export const gitChangeTracker = (options: ChangeTrackingOptions = {}): ChangeTracker => {
  const snapshotter = gitSnapshotter(options);
  const find = workTreeFinder(options);
  return {
    begin: (cwd) =>
      ResultAsync.fromSafePromise(find(cwd)).andThen((tree) =>
        tree === undefined ? errAsync(unavailable(`${cwd} is not inside a git work tree`)) : snapshotter.begin(tree),
      ),
  };
};
