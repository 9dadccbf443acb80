/** The limits every change tracker works within, with their defaults. */

export type TrackingLimits = {
  /** Files larger than this are named with a note, not diffed. */
  readonly maxFileBytes: number;
  /** The texts of one command's diffs together stay under this; further files are named only. */
  readonly maxDiffBytes: number;
  /** A `begin` that can't snapshot the cwd within this answers `unavailable`, and so for good for that cwd. */
  readonly beginBudgetMs: number;
  /** A `finish` that can't read the after-state within this fails. */
  readonly finishTimeoutMs: number;
  /** Scan only (outside git): more files than this under the cwd is too large to watch. */
  readonly maxFiles: number;
  /** Scan only: the content a snapshot keeps in memory; over it is too large to watch. */
  readonly maxSnapshotBytes: number;
  /**
   * Git only: a changed file over `maxFileBytes` but within this has its content before read anyway
   * (for /undo, through `ChangeSnapshot.before`), while a call's such reads stay within `maxBeforeCallBytes`.
   */
  readonly maxBeforeFileBytes: number;
  readonly maxBeforeCallBytes: number;
};

export const DEFAULT_TRACKING_LIMITS: TrackingLimits = {
  maxFileBytes: 256 * 1024,
  maxDiffBytes: 8 * 1024 * 1024,
  beginBudgetMs: 1500,
  finishTimeoutMs: 30_000,
  maxFiles: 5000,
  maxSnapshotBytes: 32 * 1024 * 1024,
  maxBeforeFileBytes: 16 * 1024 * 1024,
  maxBeforeCallBytes: 64 * 1024 * 1024,
};

/** Options of the change trackers: any limit, and the environment git and the scan run in. */
export type ChangeTrackingOptions = Partial<TrackingLimits> & {
  /** The git to run; looked up on PATH when not absolute. Default `git`. */
  readonly gitPath?: string;
  /** Environment of git. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Where the git tracker makes its temporary index directory. Default `os.tmpdir()`. */
  readonly tempDir?: string;
  /**
   * The hidden paths of a cwd (absolute: `hiddenPathsFor`'s answer, the sandbox's set): never read,
   * hashed, staged or diffed; one that changed is named with a note. Default: none.
   */
  readonly hidden?: (cwd: string) => readonly string[];
};

export const limitsOf = (options: ChangeTrackingOptions): TrackingLimits => ({
  maxFileBytes: options.maxFileBytes ?? DEFAULT_TRACKING_LIMITS.maxFileBytes,
  maxDiffBytes: options.maxDiffBytes ?? DEFAULT_TRACKING_LIMITS.maxDiffBytes,
  beginBudgetMs: options.beginBudgetMs ?? DEFAULT_TRACKING_LIMITS.beginBudgetMs,
  finishTimeoutMs: options.finishTimeoutMs ?? DEFAULT_TRACKING_LIMITS.finishTimeoutMs,
  maxFiles: options.maxFiles ?? DEFAULT_TRACKING_LIMITS.maxFiles,
  maxSnapshotBytes: options.maxSnapshotBytes ?? DEFAULT_TRACKING_LIMITS.maxSnapshotBytes,
  maxBeforeFileBytes: options.maxBeforeFileBytes ?? DEFAULT_TRACKING_LIMITS.maxBeforeFileBytes,
  maxBeforeCallBytes: options.maxBeforeCallBytes ?? DEFAULT_TRACKING_LIMITS.maxBeforeCallBytes,
});
