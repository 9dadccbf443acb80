/**
 * keptIndex: a private git index kept in step with the work tree under one cwd from one bash call to
 * the next. Seeded with a copy of the user's index (so `git add` rehashes only files whose stat
 * changed), then updated; a tree watcher (one inotify watch per directory git can see) names the
 * paths changed since, so `git add` is given those alone and a step in which nothing changed runs no
 * git at all. A snapshot is the index as it was (its bytes); what a command changed is read from the
 * entries of the two indexes under the paths it touched, and the blobs that differ. What the watcher can't vouch for (too many events, a
 * watch refused, a `.gitignore` or exclude file changed) makes the step a full `git add` of the cwd;
 * a change of the user's tracked-but-ignored files makes it start again from the user's index.
 *
 * Between steps the index lives in memory, on disk only during a step (index-memory.ts).
 */
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import type { FileDiff } from "@mm/core";
import { startCatFile, type CatFile } from "./cat-file.js";
import { fileDiffsOf, IGNORED_DIRECTORY_GONE_NOTE, IGNORED_GONE_NOTE } from "./file-diffs.js";
import { gitFileDiffs } from "./git-file-diffs.js";
import { gitSteps, type GitContext, type GitSteps } from "./git-runner.js";
import { hiddenPathspecs } from "./hidden-pathspecs.js";
import { changedBeforeSnapshot, ignoredFollowed, ignoredGone } from "./ignored-followed.js";
import { indexDifferences, recordedSizes, trackedPaths, type RawDiffEntry } from "./index-entries.js";
import { indexMemory } from "./index-memory.js";
import { listDirectories } from "./list-directories.js";
import { amongIgnored, ignoreRules, type IgnoredEntries } from "./ignore-rules.js";
import { objectStoreEscape, repositoryDefenses } from "./repo-defenses.js";
import { gitEnvironment, type GitFailure } from "./run-git.js";
import { smudgeEntries } from "./smudge-entries.js";
import { treeWatcher, watchBudget, type TakenChanges, type TreeWatcher } from "./tree-watcher.js";
import type { WorkTree } from "./work-tree.js";
import { lstatOrUndefined, serialQueue } from "./step-helpers.js";

/** Past this many changed paths, one `git add` of the whole cwd is cheaper than naming them. */
const MAX_NAMED_PATHS = 1000;
/** Directories one cwd may have watched; past it the cwd is followed by full `git add`s only. */
const MAX_WATCHED_DIRECTORIES = 8192;

/** The index as it stood (undefined bytes: no index file yet), and which step made it. */
export type Snapshot = {
  readonly bytes: Buffer | undefined;
  readonly step: number;
  /** What ignored files then, besides the `.gitignore` files under the cwd (ignore-rules.ts `stamp`). */
  readonly ignoring: string;
  /** The untracked files and directories git ignored then; undefined when not followed (no watcher). */
  readonly ignored: IgnoredEntries | undefined;
  /** When it was taken (ms since the epoch): the command ran after. */
  readonly takenMs: number;
};

export type KeptIndex = {
  readonly tree: WorkTree;
  /** Brings the index in step with the work tree and answers it. */
  readonly snapshot: (timeoutMs: number) => Promise<Result<Snapshot, GitFailure>>;
  /** Brings the index in step again and answers what differs from `before` under the cwd. */
  readonly changesSince: (before: Snapshot) => Promise<Result<FileDiff[], GitFailure>>;
  /** Paths under the cwd (relative) never staged, watched or read from now on: the hidden ones. */
  readonly hide: (paths: readonly string[]) => void;
  /** Stops watching; the kept index is dropped. */
  readonly close: () => void;
};

/** What a step brought in: nothing, these cwd-relative paths, or the whole cwd. */
type Touched = { readonly kind: "none" } | { readonly kind: "paths"; readonly paths: readonly string[] } | { readonly kind: "all" };

const isIgnoreFile = (path: string): boolean => path === ".gitignore" || path.endsWith("/.gitignore");
/** The repository's own directory is never staged (git refuses it); what happens in it is not a file change. */
const isGitDirectory = (path: string): boolean => path === ".git" || path.endsWith("/.git");

/** Keeps an index for `tree`; `watch: false` makes every step a full `git add`. */
export const keptIndex = (git: GitContext, tree: WorkTree, options: { readonly watch: boolean }): KeptIndex => {
  const memory = indexMemory(git.tempDir, tree.index);
  /** False until a full step made the index match the work tree under the cwd. */
  let inStep = false;
  let step = 0;
  const maxWatched = watchBudget(MAX_WATCHED_DIRECTORIES);
  let watcher: TreeWatcher | undefined = options.watch ? treeWatcher(tree.cwd, { maxDirectories: maxWatched }) : undefined;
  /** Repositories of their own under the cwd (cwd-relative): named to every `git add`, not watched. */
  let repositories = new Set<string>();
  const rules = ignoreRules(git, tree);
  let cat: CatFile | undefined;
  const locked = serialQueue();
  const pathspec = (path: string): string => (path === "" ? (tree.prefix === "" ? "." : tree.prefix) : `${tree.prefix}${path}`);
  const hidden = hiddenPathspecs(tree.prefix);
  const { isHidden, specs, magic } = hidden;
  const treePath = (path: string): string => (path === "" ? tree.prefix.replace(/\/$/, "") : `${tree.prefix}${path}`);
  /** The untracked files and directories git ignores under the cwd, as of the last step: followed with the watcher. */
  const ignored = ignoredFollowed(tree.cwd);
  const stopWatching = (): void => {
    watcher?.close();
    watcher = undefined;
    repositories = new Set();
    ignored.forget();
  };

  /** Starts again from the user's index when its tracked-but-ignored files changed since the last look. */
  const followUserIndex = async (timeoutMs: number): Promise<Result<void, GitFailure>> =>
    (await rules.userIndexChanged(timeoutMs)).map((changed) => {
      if (!changed) return;
      memory.drop();
      inStep = false;
    });

  /** Watches every directory of the cwd git can see, then stages the whole cwd. */
  const fullStep = async (steps: GitSteps, reset: ReadonlySet<string> = new Set()): Promise<Result<Touched, GitFailure>> => {
    if (watcher !== undefined) {
      await rules.recordExcludes(steps);
      const listed = await rules.ignoredUnder(steps, [pathspec("")]);
      if (listed.isErr()) return err(listed.error);
      ignored.listed(listed.value);
      const listing = listDirectories(tree.cwd, "", {
        skip: (relative) => listed.value.dirs.has(relative) || isHidden(relative),
        repositoriesApart: true,
        max: maxWatched,
      });
      if (listing.truncated || !watcher.watchOnly(listing.dirs, reset)) stopWatching();
      else repositories = new Set(listing.repositories);
    }
    const staged = await steps.run(["add", "--all", "--ignore-errors", "--", ...specs([pathspec("")])], [], magic());
    return staged.map((): Touched => ({ kind: "all" }));
  };

  /** Watches the new directories among `paths`, then stages those paths alone. */
  const partialStep = async (steps: GitSteps, active: TreeWatcher, taken: TakenChanges): Promise<Result<Touched, GitFailure>> => {
    const adds = new Set<string>();
    const removes = new Set<string>();
    const fresh: string[] = [];
    // Watches that may be dead go first: a directory moved away and one made in its place may share an inode.
    for (const suspect of taken.suspects) active.removeUnder(suspect);
    const paths = new Set([...taken.paths, ...[...taken.suspects].filter((dir) => dir !== "")]);
    for (const path of paths) {
      if (path === "" || repositories.has(path) || isGitDirectory(path) || isHidden(path)) continue;
      const info = lstatOrUndefined(join(tree.cwd, path));
      if (info === undefined) {
        removes.add(path);
        active.removeUnder(path);
        continue;
      }
      if (info.isDirectory()) {
        if (active.watches(path, info.ino)) continue;
        fresh.push(path);
      }
      active.removeUnder(path);
      adds.add(path);
    }
    if (fresh.length > 0) {
      const listed = await rules.ignoredUnder(steps, fresh.map(pathspec));
      if (listed.isErr()) return err(listed.error);
      ignored.add(listed.value);
      for (const dir of fresh.filter((d) => !listed.value.dirs.has(d))) {
        const listing = listDirectories(tree.cwd, dir, {
          skip: (relative) => listed.value.dirs.has(relative) || isHidden(relative),
          repositoriesApart: true,
          max: maxWatched - active.size(),
        });
        for (const repository of listing.repositories) repositories.add(repository);
        if (listing.truncated || !active.add(listing.dirs)) {
          stopWatching();
          return fullStep(steps);
        }
      }
    }
    const named = [...adds, ...[...repositories].filter((path) => !isHidden(path))];
    const tracked = trackedPaths(memory.bytes(), tree.idBytes, [...adds, ...removes].map(pathspec));
    // A rewrite that kept size and mtime within the second of the last look: git compares content.
    smudgeEntries(
      steps.indexFile,
      memory.bytes(),
      tree.idBytes,
      [...adds].map(pathspec).filter((path) => tracked.has(path)),
    );
    const stage = async (): Promise<Result<unknown, GitFailure>> => {
      // Files the index holds, changed or gone: `update-index` looks at them alone, no directory read.
      if (fresh.length === 0 && repositories.size === 0 && [...adds, ...removes].every((path) => tracked.has(pathspec(path)))) {
        return steps.run(["update-index", "--remove", "--", ...[...adds, ...removes].map(pathspec)]);
      }
      if (named.length > 0) {
        // Preloading the index stats its entries on threads: for a few paths, slower than not.
        const staged = await steps.run(["add", "--all", "--ignore-errors", "--", ...specs(named.map(pathspec))], ["core.preloadIndex=false"], magic());
        if (staged.isErr()) return staged;
      }
      return removes.size === 0
        ? ok(undefined)
        : steps.run(["rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", ...specs([...removes].map(pathspec))], [], magic());
    };
    // A path gone since it was looked at: `git add` refuses the whole list; the full step can't.
    const staged = await stage();
    if (staged.isErr()) return staged.error.timedOut ? err(staged.error) : fullStep(steps);
    return ok({ kind: "paths", paths: [...named, ...removes] });
  };

  /**
   * One step: the index brought in step with the work tree under the cwd. A snapshot first follows
   * the user's index; the end of a call does not (a `git add` in the command changed no file).
   */
  const bringInStep = async (timeoutMs: number, followUser: boolean): Promise<Result<Touched, GitFailure>> => {
    if (followUser) {
      const followed = await followUserIndex(timeoutMs);
      if (followed.isErr()) return err(followed.error);
    }
    let taken: TakenChanges | undefined;
    if (watcher !== undefined) {
      await watcher.settle();
      taken = watcher.take();
    }
    const root = lstatOrUndefined(tree.cwd);
    const gone = root === undefined || !root.isDirectory();
    if (gone) stopWatching();
    // The cwd itself replaced: no watch above it saw that.
    const rootMoved = watcher !== undefined && root !== undefined && (!watcher.watches("", root.ino) || taken?.suspects.has("") === true);
    const full =
      !inStep ||
      rootMoved ||
      taken === undefined ||
      !taken.complete ||
      taken.paths.size > MAX_NAMED_PATHS ||
      [...taken.paths].some(isIgnoreFile) ||
      rules.excludesMoved();
    if (!gone && !full && taken !== undefined && repositories.size === 0 && [...taken.paths].every((path) => path === "" || isGitDirectory(path)))
      return ok({ kind: "none" });
    // Checked again before every batch: the command that just ran may have linked the object store
    // out of the work tree, or defined a filter.
    const outside = objectStoreEscape(tree.objects, tree.top);
    if (outside !== undefined) {
      inStep = false;
      return err({ timedOut: false, message: `the repository's objects would be written out of it (${outside.slice(0, 200)}): its changes are not tracked` });
    }
    const defenses = await repositoryDefenses(git.path, tree.top, git.env, timeoutMs);
    if (defenses.isErr()) {
      inStep = false;
      return err(defenses.error);
    }
    const touched = await memory.onDisk(async (indexFile): Promise<Result<Touched, GitFailure>> => {
      const steps = gitSteps(git, tree.top, indexFile, timeoutMs, defenses.value);
      if (gone) return (await steps.run(["rm", "-r", "-q", "-f", "--cached", "--ignore-unmatch", "--", pathspec("")])).map((): Touched => ({ kind: "all" }));
      if (full || watcher === undefined || taken === undefined) return fullStep(steps, taken?.suspects);
      return partialStep(steps, watcher, taken);
    });
    if (touched.isErr()) {
      inStep = false;
      return touched;
    }
    if (touched.value.kind === "paths" && ignored.current() !== undefined) {
      // Each file named that the index does not hold is ignored (or unreadable).
      const held = trackedPaths(memory.bytes(), tree.idBytes, touched.value.paths.map(pathspec));
      ignored.follow(touched.value.paths, (path) => held.has(pathspec(path)));
    }
    ignored.bound();
    inStep = true;
    if (touched.value.kind !== "none") step += 1;
    return touched;
  };

  const snapshot = async (timeoutMs: number): Promise<Result<Snapshot, GitFailure>> =>
    (await bringInStep(timeoutMs, true)).map(() => {
      const bytes = memory.bytes();
      memory.hold(bytes, 1);
      return { bytes, step, ignoring: rules.stamp(), ignored: ignored.share(), takenMs: Date.now() };
    });

  const changesSince = async (before: Snapshot): Promise<Result<FileDiff[], GitFailure>> => {
    try {
      return await compareWith(before);
    } finally {
      memory.hold(before.bytes, -1);
    }
  };

  const compareWith = async (before: Snapshot): Promise<Result<FileDiff[], GitFailure>> => {
    const stepBefore = step;
    const brought = await bringInStep(git.limits.finishTimeoutMs, false);
    if (brought.isErr()) return err(brought.error);
    const touched = brought.value;
    if (touched.kind === "none" && before.step === stepBefore) return ok([]);
    const paths = touched.kind === "paths" && before.step === stepBefore ? touched.paths.map(treePath) : [treePath("")];
    // A hidden path's entry (the user's own, from their index) is never read: named by its stamp instead.
    const differences = indexDifferences(before.bytes, memory.bytes(), tree.idBytes, paths).filter((entry) => !isHidden(entry.path.slice(tree.prefix.length)));
    // What git ignores changed meanwhile: a file in the index now but not before may have been there all
    // along, ignored. New only if the index did not hold it under the same rules, or it was not among
    // the ignored files then (known with the watcher; without it, not known: it may have existed).
    const rulesChanged = rules.stamp() !== before.ignoring || differences.some((entry) => isIgnoreFile(entry.path));
    const wasIgnored = before.ignored;
    const mayHaveExisted = !rulesChanged
      ? undefined
      : (path: string): boolean => wasIgnored === undefined || amongIgnored(wasIgnored, path.slice(tree.prefix.length));
    // Of those, one whose inode changed last before the call began (ctime, which no command can set
    // back) was not touched by it: only uncovered, not a change of this call, so not reported.
    const untouched = (entry: RawDiffEntry): boolean =>
      mayHaveExisted !== undefined &&
      entry.oldMode === "000000" &&
      mayHaveExisted(entry.path) &&
      changedBeforeSnapshot(join(tree.top, entry.path), before.takenMs);
    const entries = mayHaveExisted === undefined ? differences : differences.filter((entry) => !untouched(entry));
    // Ignored files the call removed (or renamed away): named, for their content was never kept.
    const gone = ignoredGone(tree.cwd, before.ignored, touched.kind === "paths" && before.step === stepBefore ? touched.paths : undefined, isHidden).map(
      ([path, dir]): FileDiff => ({ path: join(tree.cwd, path), oldText: null, newText: null, note: dir ? IGNORED_DIRECTORY_GONE_NOTE : IGNORED_GONE_NOTE }),
    );
    if (entries.length === 0 && gone.length === 0) return ok([]);
    if (entries.length === 0) return ok(fileDiffsOf([], git.limits, new Map(), new Set(), new Set(), gone));
    if (cat === undefined || !cat.usable()) cat = startCatFile(git.path, tree.top, gitEnvironment(git.env));
    const recorded = recordedSizes(
      before.bytes,
      tree.idBytes,
      entries.map((entry) => entry.path),
    );
    return gitFileDiffs(cat, tree, entries, git.limits, Date.now() + git.limits.finishTimeoutMs, recorded, mayHaveExisted, gone);
  };

  return {
    tree,
    snapshot: (timeoutMs) => locked(() => snapshot(timeoutMs)),
    changesSince: (before) => locked(() => changesSince(before)),
    hide: (paths) => {
      if (hidden.set(paths)) inStep = false;
    },
    close: () => {
      cat?.close();
      cat = undefined;
      stopWatching();
      memory.drop();
      inStep = false;
    },
  };
};
