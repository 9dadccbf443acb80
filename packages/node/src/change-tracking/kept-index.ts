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
 * Between steps the index lives in memory; it is on disk only during a step, in a temporary directory
 * removed at its end, the file given back its own mtime (git's racy-entry check compares with it).
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  copyFileSync,
  fstatSync,
  mkdtempSync,
  openSync,
  readSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import type { FileDiff } from "@mm/core";
import { startCatFile, type CatFile } from "./cat-file.js";
import { fileDiffsOf, IGNORED_DIRECTORY_GONE_NOTE, IGNORED_GONE_NOTE } from "./file-diffs.js";
import { gitFileDiffs } from "./git-file-diffs.js";
import { gitSteps, type GitContext, type GitSteps } from "./git-runner.js";
import { entryOffsets, indexDifferences, recordedSizes, SIZE_AT, trackedPaths, type RawDiffEntry } from "./index-entries.js";
import { listDirectories } from "./list-directories.js";
import { isHiddenRelative } from "../boundary/hidden-paths.js";
import { amongIgnored, ignoreRules, type IgnoredEntries } from "./ignore-rules.js";
import { objectStoreEscape, repositoryDefenses } from "./repo-defenses.js";
import { gitEnvironment, type GitFailure } from "./run-git.js";
import { treeWatcher, watchBudget, type TakenChanges, type TreeWatcher } from "./tree-watcher.js";
import type { WorkTree } from "./work-tree.js";
import { lstatOrUndefined, serialQueue } from "./step-helpers.js";

/** Past this many changed paths, one `git add` of the whole cwd is cheaper than naming them. */
const MAX_NAMED_PATHS = 1000;
/** Ignored files and directories followed per cwd; past it they are not known (a call after a `.gitignore` change names more files as first seen). */
const MAX_IGNORED_FOLLOWED = 20_000;
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

/**
 * Margin on "changed before the call": a file's ctime comes from the kernel's coarse clock, a tick or
 * so behind the one `Date.now()` reads.
 */
const RACY_MS = 100;

/** Whether the entry at `path` last changed (its ctime) before `ms`; false when it cannot be told. */
const changedBefore = (path: string, ms: number): boolean => {
  const info = lstatOrUndefined(path);
  return info !== undefined && info.ctimeMs < ms;
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

type IndexBytes = { readonly bytes: Buffer; readonly atime: Date; readonly mtime: Date };

const isIgnoreFile = (path: string): boolean => path === ".gitignore" || path.endsWith("/.gitignore");
/** The repository's own directory is never staged (git refuses it); what happens in it is not a file change. */
const isGitDirectory = (path: string): boolean => path === ".git" || path.endsWith("/.git");

/** Keeps an index for `tree`; `watch: false` makes every step a full `git add`. */
export const keptIndex = (git: GitContext, tree: WorkTree, options: { readonly watch: boolean }): KeptIndex => {
  let index: IndexBytes | undefined;
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
  /** The hidden paths (cwd-relative): left out of every `git add` (exclude pathspecs), watch and read. */
  let hidden: readonly string[] = [];
  const isHidden = (path: string): boolean => isHiddenRelative(hidden, path);
  /**
   * Pathspecs for `paths` (tree paths) with the hidden ones excluded: each taken literally, so run
   * with `magic` on (git-runner.ts) when there is anything hidden.
   */
  const specs = (paths: readonly string[]): string[] =>
    hidden.length === 0 ? [...paths] : [...paths.map((path) => `:(literal)${path}`), ...hidden.map((path) => `:(exclude,literal)${tree.prefix}${path}`)];
  const magic = (): boolean => hidden.length > 0;
  const treePath = (path: string): string => (path === "" ? tree.prefix.replace(/\/$/, "") : `${tree.prefix}${path}`);
  /**
   * The untracked files and directories git ignores under the cwd, as of the last step: files that
   * exist though the index does not hold them. Followed with the watcher (listed at a full step, then
   * brought in step with the paths each step names), else undefined: not known. Shared with the
   * snapshots that hold it, so copied before a change.
   */
  let ignored: IgnoredEntries | undefined;
  let ignoredShared = false;
  const ignoredToChange = (): IgnoredEntries | undefined => {
    if (ignored !== undefined && ignoredShared) ignored = { dirs: new Set(ignored.dirs), files: new Set(ignored.files) };
    ignoredShared = false;
    return ignored;
  };
  const stopWatching = (): void => {
    watcher?.close();
    watcher = undefined;
    repositories = new Set();
    ignored = undefined;
  };

  /**
   * Memory for the next index read back: that of an index no longer current nor held by a snapshot
   * (fresh memory costs a page fault per page; reused memory does not).
   */
  let spare: Buffer | undefined;
  const held = new Map<ArrayBufferLike, number>();
  const release = (bytes: Buffer | undefined): void => {
    if (bytes === undefined || (held.get(bytes.buffer) ?? 0) > 0 || bytes.buffer === index?.bytes.buffer) return;
    if (spare === undefined || bytes.buffer.byteLength > spare.length) spare = Buffer.from(bytes.buffer);
  };
  const hold = (bytes: Buffer | undefined, by: number): void => {
    if (bytes === undefined) return;
    const count = (held.get(bytes.buffer) ?? 0) + by;
    if (count > 0) held.set(bytes.buffer, count);
    else {
      held.delete(bytes.buffer);
      release(bytes);
    }
  };
  const readBack = (file: string): Buffer => {
    const fd = openSync(file, "r");
    try {
      const size = fstatSync(fd).size;
      const memory = spare !== undefined && spare.length >= size ? spare : Buffer.allocUnsafeSlow(Math.ceil(size * 1.25));
      spare = undefined;
      const bytes = memory.subarray(0, size);
      for (let read = 0; read < size; ) {
        const got = readSync(fd, bytes, read, size - read, read);
        if (got === 0) throw new Error("the index shrank while read");
        read += got;
      }
      return bytes;
    } finally {
      closeSync(fd);
    }
  };

  /**
   * The index on disk for `work`, in a temporary directory removed after it; kept in memory again.
   * Synchronous file calls: a millisecond or two, where the promise API took ten here.
   */
  const onDisk = async <T>(work: (indexFile: string) => Promise<T>): Promise<T> => {
    const dir = mkdtempSync(join(git.tempDir, "mm-changes-"));
    const file = join(dir, "index");
    try {
      if (index === undefined) {
        try {
          copyFileSync(tree.index, file);
        } catch {
          // no index yet: git makes one
        }
      } else {
        writeFileSync(file, index.bytes);
        utimesSync(file, index.atime, index.mtime);
      }
      const result = await work(file);
      const previous = index?.bytes;
      try {
        const info = statSync(file);
        index = { bytes: readBack(file), atime: info.atime, mtime: info.mtime };
      } catch {
        index = undefined;
      }
      release(previous);
      return result;
    } finally {
      try {
        unlinkSync(file);
        rmdirSync(dir);
      } catch {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  };

  /** Starts again from the user's index when its tracked-but-ignored files changed since the last look. */
  const followUserIndex = async (timeoutMs: number): Promise<Result<void, GitFailure>> =>
    (await rules.userIndexChanged(timeoutMs)).map((changed) => {
      if (!changed) return;
      index = undefined;
      inStep = false;
    });

  /** Watches every directory of the cwd git can see, then stages the whole cwd. */
  const fullStep = async (steps: GitSteps, reset: ReadonlySet<string> = new Set()): Promise<Result<Touched, GitFailure>> => {
    if (watcher !== undefined) {
      await rules.recordExcludes(steps);
      const listed = await rules.ignoredUnder(steps, [pathspec("")]);
      if (listed.isErr()) return err(listed.error);
      ignored = listed.value.files.size + listed.value.dirs.size > MAX_IGNORED_FOLLOWED ? undefined : listed.value;
      ignoredShared = false;
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

  /**
   * Marks the entries of `paths` in the index file as git marks racily clean ones (size 0), so `git
   * add` compares their content: a rewrite that kept size and mtime (`cp -p`, `touch -r`) within the
   * second of the last look has a stat git can't tell from the old one, and the watcher saw it.
   */
  const smudge = (indexFile: string, paths: readonly string[]): void => {
    const bytes = index?.bytes;
    if (bytes === undefined) return;
    const offsets = entryOffsets(bytes, tree.idBytes, paths);
    if (offsets.length === 0) return;
    const zero = Buffer.alloc(4);
    const hash = createHash(tree.idBytes === 32 ? "sha256" : "sha1");
    let at = 0;
    for (const offset of offsets) {
      hash.update(bytes.subarray(at, offset + SIZE_AT));
      hash.update(zero);
      at = offset + SIZE_AT + 4;
    }
    hash.update(bytes.subarray(at, bytes.length - tree.idBytes));
    const fd = openSync(indexFile, "r+");
    try {
      for (const offset of offsets) writeSync(fd, zero, 0, 4, offset + SIZE_AT);
      writeSync(fd, hash.digest(), 0, tree.idBytes, bytes.length - tree.idBytes);
    } finally {
      closeSync(fd);
    }
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
      const known = ignoredToChange();
      for (const dir of listed.value.dirs) known?.dirs.add(dir);
      for (const file of listed.value.files) known?.files.add(file);
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
    const tracked = trackedPaths(index?.bytes, tree.idBytes, [...adds, ...removes].map(pathspec));
    smudge(
      steps.indexFile,
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

  /** After a step that named `paths`: each file there that the index does not hold is ignored (or unreadable), each gone is forgotten. */
  const followIgnored = (paths: readonly string[]): void => {
    const known = ignoredToChange();
    if (known === undefined) return;
    const held = trackedPaths(index?.bytes, tree.idBytes, paths.map(pathspec));
    for (const path of paths) {
      const info = lstatOrUndefined(join(tree.cwd, path));
      if (info === undefined) {
        known.dirs.delete(path);
        known.files.delete(path);
        for (const file of known.files) if (file.startsWith(`${path}/`)) known.files.delete(file);
        for (const dir of known.dirs) if (dir.startsWith(`${path}/`)) known.dirs.delete(dir);
      } else if (!info.isDirectory()) {
        if (held.has(pathspec(path))) known.files.delete(path);
        else known.files.add(path);
      }
    }
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
    const touched = await onDisk(async (indexFile): Promise<Result<Touched, GitFailure>> => {
      const steps = gitSteps(git, tree.top, indexFile, timeoutMs, defenses.value);
      if (gone) return (await steps.run(["rm", "-r", "-q", "-f", "--cached", "--ignore-unmatch", "--", pathspec("")])).map((): Touched => ({ kind: "all" }));
      if (full || watcher === undefined || taken === undefined) return fullStep(steps, taken?.suspects);
      return partialStep(steps, watcher, taken);
    });
    if (touched.isErr()) {
      inStep = false;
      return touched;
    }
    if (touched.value.kind === "paths") followIgnored(touched.value.paths);
    if (ignored !== undefined && ignored.files.size + ignored.dirs.size > MAX_IGNORED_FOLLOWED) ignored = undefined;
    inStep = true;
    if (touched.value.kind !== "none") step += 1;
    return touched;
  };

  const snapshot = async (timeoutMs: number): Promise<Result<Snapshot, GitFailure>> =>
    (await bringInStep(timeoutMs, true)).map(() => {
      hold(index?.bytes, 1);
      ignoredShared = true;
      return { bytes: index?.bytes, step, ignoring: rules.stamp(), ignored, takenMs: Date.now() };
    });

  const changesSince = async (before: Snapshot): Promise<Result<FileDiff[], GitFailure>> => {
    try {
      return await compareWith(before);
    } finally {
      hold(before.bytes, -1);
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
    const differences = indexDifferences(before.bytes, index?.bytes, tree.idBytes, paths).filter((entry) => !isHidden(entry.path.slice(tree.prefix.length)));
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
      changedBefore(join(tree.top, entry.path), before.takenMs - RACY_MS);
    const entries = mayHaveExisted === undefined ? differences : differences.filter((entry) => !untouched(entry));
    // Ignored files the call removed (or renamed away): named, for their content was never kept.
    const gone = ignoredGone(before.ignored, touched.kind === "paths" && before.step === stepBefore ? touched.paths : undefined).map(
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

  /**
   * The untracked files and directories git ignored at `begin` (`was`) gone now, among `candidates`
   * (the paths a step named; undefined: all of them): cwd-relative, sorted, each with whether it is a
   * directory.
   */
  const ignoredGone = (was: IgnoredEntries | undefined, candidates: readonly string[] | undefined): [string, boolean][] => {
    if (was === undefined || was.files.size + was.dirs.size === 0) return [];
    const gone = new Map<string, boolean>();
    const check = (path: string, dir: boolean): void => {
      if (!isHidden(path) && lstatOrUndefined(join(tree.cwd, path)) === undefined) gone.set(path, dir);
    };
    if (candidates === undefined) {
      for (const file of was.files) check(file, false);
      for (const dir of was.dirs) check(dir, true);
    } else
      for (const path of candidates) {
        if (was.files.has(path)) check(path, false);
        else if (was.dirs.has(path)) check(path, true);
        else if (lstatOrUndefined(join(tree.cwd, path)) === undefined) {
          for (const file of was.files) if (file.startsWith(`${path}/`)) check(file, false);
          for (const dir of was.dirs) if (dir.startsWith(`${path}/`)) check(dir, true);
        }
      }
    return [...gone].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  };

  return {
    tree,
    snapshot: (timeoutMs) => locked(() => snapshot(timeoutMs)),
    changesSince: (before) => locked(() => changesSince(before)),
    hide: (paths) => {
      if (paths.join("\0") === hidden.join("\0")) return;
      hidden = paths;
      inStep = false;
    },
    close: () => {
      cat?.close();
      cat = undefined;
      stopWatching();
      index = undefined;
      inStep = false;
    },
  };
};
