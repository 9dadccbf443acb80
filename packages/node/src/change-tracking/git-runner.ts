/**
 * How the git change tracker runs git: the git to run, its environment and limits, options that keep
 * git from writing anything but a private index and loose objects, and steps that share one deadline.
 */
import { errAsync, type ResultAsync } from "neverthrow";
import type { TrackingLimits } from "./limits.js";
import { gitEnvironment, runGit, type GitFailure, type GitSetting } from "./run-git.js";

/** The git to run, its environment, the limits, and where temporary indexes go. */
export type GitContext = { readonly path: string; readonly env: NodeJS.ProcessEnv; readonly limits: TrackingLimits; readonly tempDir: string };

/** Options that keep git from writing anything beyond the index it is given and loose objects. */
const GIT_CONFIG = [
  "-c",
  "core.splitIndex=false",
  "-c",
  "advice.addEmbeddedRepo=false",
  "-c",
  "advice.addIgnoredFile=false",
  "-c",
  "core.safecrlf=false",
  "-c",
  "gc.auto=0",
];

/** Runs git steps in `cwd` on the private index `indexFile`, against one deadline. */
export type GitSteps = {
  /**
   * `git <args>`; `config` adds `-c name=value` options of its own. `magic`: pathspecs are read with
   * their magic (`:(literal)…`, `:(exclude,literal)…`), else every pathspec is literal.
   */
  readonly run: (args: readonly string[], config?: readonly string[], magic?: boolean) => ResultAsync<Buffer, GitFailure>;
  /** The index the steps work on. */
  readonly indexFile: string;
};

/** `settings`: the repository's drivers turned off (repo-defenses.ts), for every step. */
export const gitSteps = (git: GitContext, cwd: string, indexFile: string, timeoutMs: number, settings: readonly GitSetting[] = []): GitSteps => {
  const deadline = Date.now() + timeoutMs;
  const env = gitEnvironment(git.env, indexFile, settings);
  return {
    indexFile,
    run: (args, config = [], magic = false) => {
      const left = deadline - Date.now();
      if (left <= 0) return errAsync({ timedOut: true, message: `git ${args[0] ?? ""}: over ${timeoutMs} ms` });
      const alsoOk = args[0] === "add" ? [1] : [];
      const argv = [...GIT_CONFIG, ...config.flatMap((option) => ["-c", option]), ...args];
      return runGit({ git: git.path, args: argv, cwd, env: magic ? { ...env, GIT_LITERAL_PATHSPECS: "0" } : env, timeoutMs: left, alsoOk });
    },
  };
};
