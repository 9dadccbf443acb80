/**
 * changeTracker: the ChangeTracker the agent uses. Per `begin`, a cwd inside a git work tree is
 * snapshotted with git (temporary index and tree objects, fast on large repositories), any other cwd
 * with a bounded scan. Each side refuses for good, at once, a cwd it once found too large to watch.
 * The hidden paths (`options.hidden`, the sandbox's set) are left out of both, named only when they
 * changed (change-tracking/hidden-changes.ts).
 */
import { errAsync, ResultAsync } from "neverthrow";
import type { ChangeTracker } from "@mm/core";
import { hiddenUnder } from "../boundary/hidden-paths.js";
import { gitSnapshotter, workTreeFinder } from "./git-change-tracker.js";
import { hiddenStamps, withHiddenNamed } from "./hidden-changes.js";
import type { ChangeTrackingOptions } from "./limits.js";
import { scanChangeTracker } from "./scan-change-tracker.js";

export type { ChangeTrackingOptions } from "./limits.js";

/** The ChangeTracker port on local files: a git temporary index in a work tree, else a bounded scan. */
export const changeTracker = (options: ChangeTrackingOptions = {}): ChangeTracker => {
  const git = gitSnapshotter(options);
  const scan = scanChangeTracker(options);
  const find = workTreeFinder(options);
  return {
    begin: (cwd) => {
      // The sandbox's hidden set, with the sandbox on or off: what it hides, no tracker reads.
      const hidden = hiddenUnder(options.hidden?.(cwd) ?? [], cwd);
      if (hidden.includes("")) return errAsync({ kind: "unavailable", reason: `${cwd} is a hidden path (or inside one): its files are never read` });
      const stamps = hiddenStamps(cwd, hidden);
      return ResultAsync.fromSafePromise(find(cwd))
        .andThen((tree) => {
          if (tree !== undefined) {
            scan.forget(cwd);
            return git.begin(tree, hidden);
          }
          git.forget(cwd);
          return scan.begin(cwd, hidden);
        })
        .map((snapshot) => withHiddenNamed(cwd, hidden, stamps, snapshot));
    },
  };
};
