/**
 * The operator's log on stderr, by level: `quiet` keeps warnings and errors only (some editors show
 * every stderr line as an error), `info` adds the `[acp] …` lines and the banner, `debug` each model
 * request's size and timing. Chosen with `--log-level` or `$MM_LOG_LEVEL`; `info` by default.
 */
import { err, ok, type Result } from "neverthrow";

const LOG_LEVELS = ["quiet", "info", "debug"] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The log, one function per kind of line, and the app's only words for them: `warn` (something went
 * wrong or was refused; kept at every level), `info` (what happened; dropped by `quiet`), `debug` (each
 * model request's size and timing; absent below the debug level, so nothing is measured for it). The
 * app's records name them so (`AppState.info`/`warn`, `ServeOptions`, the MCP hooks, `ndJsonStream`'s
 * `warn`); the core's `AgentDeps` keeps its own `log` (= info) and `warn`.
 */
export type Log = {
  readonly warn: (line: string) => void;
  readonly info: (line: string) => void;
  readonly debug: ((line: string) => void) | undefined;
};

/** `value` as a level, or undefined when it is none. */
export const logLevelOf = (value: string): LogLevel | undefined => LOG_LEVELS.find((level) => level === value);

/** What `--log-level` or `$MM_LOG_LEVEL` say is wrong with `value`. */
export const badLogLevel = (source: string, value: string): string => `mm-acp: ${source} must be one of ${LOG_LEVELS.join(", ")}; got ${JSON.stringify(value)}`;

/** The level: the command line's, else `$MM_LOG_LEVEL`'s (empty counts as unset), else info; or what is wrong. */
export const chosenLogLevel = (fromArgs: LogLevel | undefined, env: Readonly<Record<string, string | undefined>>): Result<LogLevel, string> => {
  if (fromArgs !== undefined) return ok(fromArgs);
  const fromEnv = env.MM_LOG_LEVEL;
  if (fromEnv === undefined || fromEnv === "") return ok("info");
  const level = logLevelOf(fromEnv);
  return level !== undefined ? ok(level) : err(badLogLevel("MM_LOG_LEVEL", fromEnv));
};

const ignore = (): void => undefined;

/** The log at `level`, writing its lines with `write`. */
export const leveledLog = (level: LogLevel, write: (line: string) => void): Log => ({
  warn: write,
  info: level === "quiet" ? ignore : write,
  debug: level === "debug" ? write : undefined,
});
