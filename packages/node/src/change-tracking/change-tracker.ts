/**
 * changeTracker: the ChangeTracker the agent uses. Per `begin`, a cwd inside a git work tree is
 * snapshotted with git (temporary index and tree objects, fast on large repositories), any other cwd
 * with a bounded scan. Each side refuses for good, at once, a cwd it once found too large to watch.
 */
import { ResultAsync } from "neverthrow";
import type { ChangeTracker } from "@mm/core";
import { gitSnapshotter, workTreeFinder } from "./git-change-tracker.js";
import type { ChangeTrackingOptions } from "./limits.js";
import { scanChangeTracker } from "./scan-change-tracker.js";

export type { ChangeTrackingOptions } from "./limits.js";
export { DEFAULT_TRACKING_LIMITS } from "./limits.js";

/** The ChangeTracker port on local files: a git temporary index in a work tree, else a bounded scan. */
export const changeTracker = (options: ChangeTrackingOptions = {}): ChangeTracker => {
  const git = gitSnapshotter(options);
  const scan = scanChangeTracker(options);
  const find = workTreeFinder(options);
  return {
    begin: (cwd) =>
      ResultAsync.fromSafePromise(find(cwd)).andThen((tree) => {
        if (tree !== undefined) {
          scan.forget(cwd);
          return git.begin(tree);
        }
        git.forget(cwd);
        return scan.begin(cwd);
      }),
  };
};
