/**
 * gitChangeTracker: the ChangeTracker port in a git work tree. A snapshot is a tree object of the
 * working tree under the cwd, built in a private index that is kept from one call to the next
 * (change-tracking/kept-index.ts): seeded with a copy of the user's index, brought in step before and
 * after each command by `git add` of the paths a watcher saw change (of the whole cwd when it can't
 * tell), so a command that changed nothing runs no git at all. The trees before and after are
 * compared under the paths that changed, and only the blobs that differ are read.
 *
 * What it guarantees: the user's index, refs, HEAD and config are never written (the private index is
 * on disk only during a step, in a temporary directory removed at its end); no commit is made. What it
 * costs: blobs of new and changed files, and tree objects, land in the object store as loose objects
 * (`git gc` prunes them); an inotify watch per directory of the cwds followed (at most a few cwds).
 * What it sees is what `git add` sees: ignored files that are not tracked are invisible, contents are
 * as git stores them (clean filters and end-of-line conversion applied), a mode-only change is not
 * reported, a symbolic link or a submodule is named with a note.
 */
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { err, errAsync, ok, ResultAsync, type Result } from "neverthrow";
import type { ChangeSnapshot, ChangeTracker, ChangeTrackingError } from "@mm/core";
import type { GitContext } from "./git-runner.js";
import { keptIndex, type KeptIndex, type Snapshot } from "./kept-index.js";
import { keptPerCwd, snapshotFinishingOnce } from "./kept-per-cwd.js";
import { limitsOf, type ChangeTrackingOptions, type TrackingLimits } from "./limits.js";
import { workTreeFinder, type WorkTree } from "./work-tree.js";

export { findWorkTree, workTreeFinder, type WorkTree } from "./work-tree.js";

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

const tooSlow = async (tree: WorkTree, limits: TrackingLimits): Promise<string> => {
  const count = await indexEntryCount(tree.index);
  const files = count === undefined ? "" : ` (${count.toLocaleString("en-US")} file${count === 1 ? "" : "s"} in the index)`;
  return `${tree.cwd} is too large to watch: a git snapshot takes over ${limits.beginBudgetMs} ms${files}`;
};

const sameTree = (a: WorkTree, b: WorkTree): boolean => a.top === b.top && a.prefix === b.prefix && a.index === b.index;

/** Snapshots work trees; a cwd once over the budget is refused at once from then on. */
export type GitSnapshotter = {
  /** `hidden`: paths under the cwd (relative) never staged nor read. */
  readonly begin: (tree: WorkTree, hidden?: readonly string[]) => ResultAsync<ChangeSnapshot, ChangeTrackingError>;
  /** Drops what is kept for `cwd` (it left git, or its repository changed). */
  readonly forget: (cwd: string) => void;
};

export type GitSnapshotterOptions = ChangeTrackingOptions & {
  /** Watch the cwd's directories so unchanged calls cost no git (default); false: a full `git add` each time. */
  readonly watch?: boolean;
};

export const gitSnapshotter = (options: GitSnapshotterOptions = {}): GitSnapshotter => {
  const git: GitContext = {
    path: options.gitPath ?? "git",
    env: options.env ?? process.env,
    limits: limitsOf(options),
    tempDir: options.tempDir ?? tmpdir(),
  };
  const refused = new Map<string, string>();
  const kept = keptPerCwd<KeptIndex>();
  const forget = kept.forget;
  const keptFor = (tree: WorkTree): KeptIndex =>
    kept.get(
      tree.cwd,
      () => keptIndex(git, tree, { watch: options.watch ?? true }),
      (known) => sameTree(known.tree, tree),
    );
  const snapshotOf = (index: KeptIndex, before: Snapshot): ChangeSnapshot =>
    snapshotFinishingOnce(
      () => index.changesSince(before),
      () => forget(index.tree.cwd),
      (failure) => failure.message,
    );

  const begin = async (tree: WorkTree, hidden: readonly string[]): Promise<Result<ChangeSnapshot, ChangeTrackingError>> => {
    const known = refused.get(tree.cwd);
    if (known !== undefined) return err(unavailable(known));
    const index = keptFor(tree);
    index.hide(hidden);
    const taken = await index.snapshot(git.limits.beginBudgetMs);
    if (taken.isOk()) return ok(snapshotOf(index, taken.value));
    forget(tree.cwd);
    if (!taken.error.timedOut) return err(unavailable(taken.error.message));
    const reason = await tooSlow(tree, git.limits);
    refused.set(tree.cwd, reason);
    return err(unavailable(reason));
  };

  return {
    begin: (tree, hidden = []) => new ResultAsync(begin(tree, hidden).catch((error: unknown) => err(unavailable(String(error))))),
    forget,
  };
};

/** The ChangeTracker for cwds inside a git work tree; any other cwd is `unavailable`. */
export const gitChangeTracker = (options: GitSnapshotterOptions = {}): ChangeTracker => {
  const snapshotter = gitSnapshotter(options);
  const find = workTreeFinder(options);
  return {
    begin: (cwd) =>
      ResultAsync.fromSafePromise(find(cwd)).andThen((tree) => {
        if (tree !== undefined) return snapshotter.begin(tree);
        snapshotter.forget(cwd);
        return errAsync(unavailable(`${cwd} is not inside a git work tree`));
      }),
  };
};
