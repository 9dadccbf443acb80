/**
 * runGit: one git command with a deadline, its stdout as bytes. Git runs on the host, outside any
 * sandbox, in a repository a command (or a cloned project) may have written: its environment is made
 * from scratch (no secret of the agent's, nothing pointing git at another repository or index), with
 * no system or global configuration, and with every setting that would run a program of the
 * repository's forced off (`core.fsmonitor`, `core.hooksPath`, `diff.external`, …; the filter and
 * diff drivers a repository defines are turned off per call: repo-defenses.ts).
 */
import { spawn } from "node:child_process";
import { err, ok, ResultAsync } from "neverthrow";

export type GitCommand = {
  readonly git: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. */
  readonly input?: string;
  /** Killed (SIGKILL) past this; the failure then says `timedOut`. */
  readonly timeoutMs: number;
  /** Exit codes that count as success besides 0 (`git add --ignore-errors` exits 1 when it skipped a file). */
  readonly alsoOk?: readonly number[];
};

export type GitFailure = {
  readonly timedOut: boolean;
  /** `git <subcommand>: <first line of stderr or the exit status>`. */
  readonly message: string;
};

/** A git setting as `-c name=value` would give it. */
export type GitSetting = readonly [name: string, value: string];

/** Settings every git the tracker runs gets, above the repository's own: none runs a program. */
export const FORCED_SETTINGS: readonly GitSetting[] = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.untrackedCache", "false"],
  ["diff.external", ""],
  ["core.sshCommand", ""],
  ["core.askPass", ""],
  ["core.pager", "cat"],
  ["protocol.allow", "never"],
];

/**
 * The environment of the tracker's git: PATH and HOME of `base` only (no secret, no `GIT_DIR` or other
 * variable relocating git), no system or global configuration (`GIT_CONFIG_NOSYSTEM`,
 * `GIT_CONFIG_GLOBAL=/dev/null`), {@link FORCED_SETTINGS} and `settings` as command-line settings
 * (`GIT_CONFIG_COUNT`, above the repository's), literal pathspecs, no locks taken, no prompt.
 */
export const gitEnvironment = (base: NodeJS.ProcessEnv, indexFile?: string, settings: readonly GitSetting[] = []): NodeJS.ProcessEnv => {
  const all = [...FORCED_SETTINGS, ...settings];
  const env: NodeJS.ProcessEnv = {
    PATH: base.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    ...(base.HOME !== undefined ? { HOME: base.HOME } : {}),
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_CONFIG_COUNT: String(all.length),
    GIT_LITERAL_PATHSPECS: "1",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_TERMINAL_PROMPT: "0",
    ...(indexFile === undefined ? {} : { GIT_INDEX_FILE: indexFile }),
  };
  all.forEach(([name, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = name;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
};

const subcommandOf = (args: readonly string[]): string => args.find((arg, i) => !arg.startsWith("-") && args[i - 1] !== "-c") ?? "git";

const firstLine = (text: string): string =>
  text
    .split("\n")
    .find((line) => line.trim() !== "")
    ?.trim() ?? "";

const run = (command: GitCommand): Promise<Buffer | GitFailure> =>
  new Promise((resolve) => {
    const name = `git ${subcommandOf(command.args)}`;
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let timedOut = false;
    const child = spawn(command.git, [...command.args], { cwd: command.cwd, env: command.env, stdio: ["pipe", "pipe", "pipe"] });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, command.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on("error", () => undefined);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ timedOut: false, message: `${name}: ${error.message}` });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (timedOut) resolve({ timedOut, message: `${name}: over ${command.timeoutMs} ms` });
      else if (code === 0 || (code !== null && (command.alsoOk ?? []).includes(code))) resolve(Buffer.concat(stdout));
      else resolve({ timedOut, message: `${name}: ${firstLine(Buffer.concat(stderr).toString("utf8")) || `exit ${code ?? signal}`}` });
    });
    child.stdin.end(command.input ?? "");
  });

/** Runs git; never throws. A non-zero exit, a spawn error or the deadline is a GitFailure. */
export const runGit = (command: GitCommand): ResultAsync<Buffer, GitFailure> =>
  new ResultAsync(run(command).then((outcome) => (Buffer.isBuffer(outcome) ? ok(outcome) : err(outcome))));
