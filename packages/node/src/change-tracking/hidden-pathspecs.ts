/**
 * The hidden paths of a kept index's cwd (kept-index.ts): left out of every `git add` (exclude
 * pathspecs), watch and read.
 */
import { isHiddenRelative } from "../boundary/hidden-paths.js";

export type HiddenPathspecs = {
  /** Sets the hidden paths (cwd-relative); whether they changed. */
  readonly set: (paths: readonly string[]) => boolean;
  /** Whether `path` (cwd-relative) is or lies under a hidden path. */
  readonly isHidden: (path: string) => boolean;
  /**
   * Pathspecs for `paths` (tree paths) with the hidden ones excluded: each taken literally, so run
   * with {@link HiddenPathspecs.magic} on (git-runner.ts).
   */
  readonly specs: (paths: readonly string[]) => string[];
  /** Whether pathspec magic is needed: anything hidden. */
  readonly magic: () => boolean;
};

/** Hidden paths under a cwd at `prefix` (its path in the work tree, "" or ending in "/"). */
export const hiddenPathspecs = (prefix: string): HiddenPathspecs => {
  let hidden: readonly string[] = [];
  return {
    set: (paths) => {
      if (paths.join("\0") === hidden.join("\0")) return false;
      hidden = paths;
      return true;
    },
    isHidden: (path) => isHiddenRelative(hidden, path),
    specs: (paths) =>
      hidden.length === 0 ? [...paths] : [...paths.map((path) => `:(literal)${path}`), ...hidden.map((path) => `:(exclude,literal)${prefix}${path}`)],
    magic: () => hidden.length > 0,
  };
};
