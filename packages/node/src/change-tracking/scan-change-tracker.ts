/**
 * scanChangeTracker: the ChangeTracker port for a cwd outside git. The first call walks the subtree
 * and keeps every file's stamp (size, mtime, ctime, inode) and the content of those within the size
 * limit; that state is kept from one call to the next (change-tracking/kept-scan.ts), a watcher naming
 * the paths that changed, so a call looks again only at those (a full walk when the watcher can't
 * tell). `.git`, `.hg`, `.svn` and `node_modules` directories are not entered.
 *
 * Bounded: more than `maxFiles` files, more than `maxSnapshotBytes` of content or a walk over
 * `beginBudgetMs` makes the cwd `unavailable`, and stays so for this tracker. A file over the size
 * limit is reported when its stamp moved, with a note. The kept content stays in memory between calls
 * (a few cwds at most, each within `maxSnapshotBytes`).
 */
import { err, ok, ResultAsync, type Result } from "neverthrow";
import { sizeText, type ChangeSnapshot, type ChangeTracker, type ChangeTrackingError } from "@mm/core";
import { keptPerCwd, snapshotFinishingOnce } from "./kept-per-cwd.js";
import { keptScan, type KeptScan, type ScanRefusal, type ScanState } from "./kept-scan.js";
import { limitsOf, type ChangeTrackingOptions, type TrackingLimits } from "./limits.js";

const unavailable = (reason: string): ChangeTrackingError => ({ kind: "unavailable", reason });

const refusal = (cwd: string, outcome: ScanRefusal, limits: TrackingLimits): string => {
  switch (outcome.kind) {
    case "too-many-files":
      return `${cwd} is too large to watch: over ${limits.maxFiles} files outside git`;
    case "too-much-content":
      return `${cwd} is too large to watch: over ${sizeText(limits.maxSnapshotBytes)} of files outside git`;
    case "too-slow":
      return `${cwd} is too large to watch: a scan takes over ${limits.beginBudgetMs} ms (${outcome.seen} files seen)`;
  }
};

const finishFailure = (cwd: string, outcome: ScanRefusal, limits: TrackingLimits): string => {
  switch (outcome.kind) {
    case "too-slow":
      return `scanning ${cwd} took over ${limits.finishTimeoutMs} ms`;
    case "too-many-files":
      return `${cwd} now holds over ${limits.maxFiles} files`;
    case "too-much-content":
      return `${cwd} now holds over ${sizeText(limits.maxSnapshotBytes)} of files`;
  }
};

/** The scan tracker and a way to drop what it keeps for a cwd. */
export type ScanTracker = {
  /** `hidden`: paths under the cwd (relative) never read. */
  readonly begin: (cwd: string, hidden?: readonly string[]) => ReturnType<ChangeTracker["begin"]>;
  readonly forget: (cwd: string) => void;
};

export type ScanTrackerOptions = ChangeTrackingOptions & {
  /** Watch the cwd's directories so a call looks only at what changed (default); false: a full walk each time. */
  readonly watch?: boolean;
};

/** The ChangeTracker on a bounded scan of the cwd's subtree (for cwds outside git). */
export const scanChangeTracker = (options: ScanTrackerOptions = {}): ScanTracker => {
  const limits = limitsOf(options);
  const refused = new Map<string, string>();
  const kept = keptPerCwd<KeptScan>();
  const forget = kept.forget;
  const keptFor = (cwd: string): KeptScan => kept.get(cwd, () => keptScan(cwd, limits, { watch: options.watch ?? true }));
  const snapshotOf = (scan: KeptScan, before: ScanState): ChangeSnapshot =>
    snapshotFinishingOnce(
      () => scan.changesSince(before),
      () => forget(scan.cwd),
      (outcome) => finishFailure(scan.cwd, outcome, limits),
    );

  const begin = async (cwd: string, hidden: readonly string[]): Promise<Result<ChangeSnapshot, ChangeTrackingError>> => {
    const known = refused.get(cwd);
    if (known !== undefined) return err(unavailable(known));
    const scan = keptFor(cwd);
    scan.hide(hidden);
    const taken = await scan.snapshot(limits.beginBudgetMs);
    if (taken.isOk()) return ok(snapshotOf(scan, taken.value));
    forget(cwd);
    const reason = refusal(cwd, taken.error, limits);
    refused.set(cwd, reason);
    return err(unavailable(reason));
  };

  return {
    begin: (cwd, hidden = []) => new ResultAsync(begin(cwd, hidden).catch((error: unknown) => err(unavailable(`cannot scan ${cwd}: ${String(error)}`)))),
    forget,
  };
};
