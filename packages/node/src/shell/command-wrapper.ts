/**
 * CommandWrapper: what bashShell lets another adapter do around each command — spawn it through
 * something else (a sandbox) or refuse it, and take a last look at its result.
 */
import type { ResultAsync } from "neverthrow";
import type { ShellError, ShellRequest, ShellResult } from "../core-types.js";

/** Changes how `bashShell` spawns a command and reads its result (e.g. under a sandbox). */
export type CommandWrapper = {
  /**
   * The argv to spawn instead of `bashArgv` (bash and its arguments, first element the program), or
   * why this command must not run at all. Whatever is spawned keeps bash's process group, timeout,
   * cancel and output handling.
   */
  readonly wrap: (bashArgv: readonly string[], request: ShellRequest) => ResultAsync<readonly string[], ShellError>;
  /** The result the caller gets, from the one the command produced (e.g. with a hint appended). */
  readonly finish: (result: ShellResult, request: ShellRequest) => ShellResult;
};
