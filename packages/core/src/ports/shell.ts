/** The Shell port: runs one bash command in a directory, bounded in time and output. */
import type { ResultAsync } from "neverthrow";

/** One command to run. */
export type ShellRequest = {
  readonly command: string;
  readonly cwd: string;
  /**
   * Directories besides the cwd the command may write (the session's additional directories):
   * a sandbox binds them writable. Absolute; none when absent.
   */
  readonly writable?: readonly string[];
  readonly timeoutMs: number;
  /** Output beyond this keeps its head and tail with a marker between; memory stays bounded. */
  readonly maxOutputBytes: number;
  /** Aborting kills the whole process group (TERM, then KILL). */
  readonly signal: AbortSignal;
  /**
   * Receives the output as it arrives (stdout and stderr merged, in order, UTF-8 text never split
   * inside a character), while the command runs; never after `run` settles. Called synchronously
   * from the reader: it must return at once, and what it throws is ignored. The final `output` is
   * the same text, capped.
   */
  readonly onOutput?: (text: string) => void;
};

/** How a command ended and what it printed. */
export type ShellResult = {
  /** stdout and stderr merged, in arrival order, possibly truncated. */
  readonly output: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly cancelled: boolean;
};

/** The command could not be started at all. */
export type ShellError = { readonly kind: "spawn"; readonly message: string };

/** The Shell port. */
export type Shell = {
  /** Never throws; a command that fails is a result with its exit code, not an error. */
  readonly run: (request: ShellRequest) => ResultAsync<ShellResult, ShellError>;
};
