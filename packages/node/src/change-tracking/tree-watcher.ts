/**
 * treeWatcher: names what changed under a directory between two moments. One inotify watch
 * (`fs.watch`, not recursive) per directory it is given; every event marks the path it names dirty,
 * relative to the root. What it cannot vouch for (too many events for the kernel's queue, a watch that
 * failed, a name that is not UTF-8) makes `take` answer `complete: false`: the caller then rescans.
 */
import { readFileSync, statSync, watch, type FSWatcher } from "node:fs";
import { basename, join } from "node:path";
import { nextTurn } from "./step-helpers.js";

export type TakenChanges = {
  /** Paths relative to the root that saw an event (a file or directory, which may no longer exist). */
  readonly paths: ReadonlySet<string>;
  /** False when changes may have gone unseen since the last `take`: rescan everything. */
  readonly complete: boolean;
  /**
   * Watched directories that may have been removed or moved (an event named the directory itself,
   * as the kernel does for its own watch): their watch may be dead, whatever their inode now says.
   */
  readonly suspects: ReadonlySet<string>;
};

export type TreeWatcher = {
  /**
   * Watches these directories (relative to the root, `""` for the root). False when the system refused
   * a watch (none left) or `maxDirectories` would be passed: watching can't be relied on for this tree.
   */
  readonly add: (dirs: readonly string[]) => boolean;
  /** Stops watching `dir` and the directories under it. */
  readonly removeUnder: (dir: string) => void;
  /** Whether `dir` is watched as the directory of inode `ino` (one moved away is watched no more). */
  readonly watches: (dir: string, ino: number) => boolean;
  /** Watches exactly these directories: adds the missing, drops the others and the moved or `reset` ones. */
  readonly watchOnly: (dirs: readonly string[], reset: ReadonlySet<string>) => boolean;
  /** How many directories are watched. */
  readonly size: () => number;
  /**
   * Resolves once the events of every change made before the call are recorded: the kernel queued
   * them when the change was made, and two turns of the event loop put a poll for them in between.
   */
  readonly settle: () => Promise<void>;
  /** The changes recorded since the last `take`, and a fresh record. */
  readonly take: () => TakenChanges;
  readonly close: () => void;
};

/** The kernel drops events past its queue's length and says so only to the reader libuv is. */
const queueLength = (): number => {
  try {
    return Number(readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8").trim()) || 16384;
  } catch {
    return 16384;
  }
};

/**
 * Watches one cwd may take: at most `max`, and an eighth of the user's inotify watches, which the
 * editor and its language servers share (8,192 in all on some systems).
 */
export const watchBudget = (max: number): number => {
  try {
    const limit = Number(readFileSync("/proc/sys/fs/inotify/max_user_watches", "utf8").trim());
    return Number.isFinite(limit) && limit > 0 ? Math.min(max, Math.floor(limit / 8)) : max;
  } catch {
    return max;
  }
};

const within = (dir: string, path: string): boolean => dir === "" || path === dir || path.startsWith(`${dir}/`);

export type TreeWatcherLimits = {
  /** Watches it may hold. */
  readonly maxDirectories: number;
  /** Events between two takes past which some may have been dropped; half the kernel's queue by default. */
  readonly maxEvents?: number;
};

/** Watches directories under `root` (absolute). */
export const treeWatcher = (root: string, limits: TreeWatcherLimits): TreeWatcher => {
  const watchers = new Map<string, { readonly watcher: FSWatcher; readonly ino: number }>();
  const maxDirectories = limits.maxDirectories;
  // Fewer events than half the queue since the last take: none can have been dropped.
  const maxEvents = limits.maxEvents ?? Math.floor(queueLength() / 2);
  let paths = new Set<string>();
  let suspects = new Set<string>();
  let events = 0;
  let broken = false;

  const record = (dir: string, name: Buffer | string | null): void => {
    events += 1;
    if (name === null) {
      paths.add(dir);
      return;
    }
    const text = typeof name === "string" ? name : name.toString("utf8");
    if (typeof name !== "string" && !Buffer.from(text, "utf8").equals(name)) broken = true;
    // A directory's own removal or move is reported under its own name.
    if (text === basename(join(root, dir))) suspects.add(dir);
    paths.add(dir === "" ? text : `${dir}/${text}`);
  };

  const add = (dirs: readonly string[]): boolean => {
    for (const dir of dirs) {
      if (watchers.has(dir)) continue;
      if (watchers.size >= maxDirectories) {
        broken = true;
        return false;
      }
      try {
        const path = join(root, dir);
        const watcher = watch(path, { persistent: false, encoding: "buffer" }, (_event, name) => record(dir, name));
        // Taken after the watch: a directory replaced in between shows as moved, and is watched again.
        const ino = statSync(path).ino;
        // A watch that failed is dropped and its directory marked: the caller's rescan watches it again.
        watcher.on("error", () => {
          watcher.close();
          if (watchers.get(dir)?.watcher === watcher) watchers.delete(dir);
          paths.add(dir);
          broken = true;
        });
        watchers.set(dir, { watcher, ino });
      } catch (error) {
        // A directory gone meanwhile is the next event's business; anything else (no watches left) is not.
        if (!(typeof error === "object" && error !== null && "code" in error && (error.code === "ENOENT" || error.code === "ENOTDIR"))) {
          broken = true;
          return false;
        }
        paths.add(dir);
      }
    }
    return true;
  };

  const removeUnder = (dir: string): void => {
    for (const [watched, { watcher }] of watchers) {
      if (!within(dir, watched)) continue;
      watcher.close();
      watchers.delete(watched);
    }
  };

  return {
    add,
    removeUnder,
    watches: (dir, ino) => watchers.get(dir)?.ino === ino,
    watchOnly: (dirs, reset) => {
      const wanted = new Set(dirs);
      for (const [dir, { watcher, ino }] of watchers) {
        let moved = true;
        try {
          moved = statSync(join(root, dir)).ino !== ino;
        } catch {
          // gone: dropped below
        }
        if (wanted.has(dir) && !moved && !reset.has(dir)) continue;
        watcher.close();
        watchers.delete(dir);
      }
      return add(dirs);
    },
    size: () => watchers.size,
    settle: async () => {
      await nextTurn();
      await nextTurn();
    },
    take: () => {
      const taken = { paths, complete: !broken && events < maxEvents, suspects };
      paths = new Set();
      suspects = new Set();
      events = 0;
      broken = false;
      return taken;
    },
    close: () => {
      for (const { watcher } of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
};
