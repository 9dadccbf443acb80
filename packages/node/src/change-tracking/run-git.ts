/**
 * runGit: one git command with a deadline, its stdout as bytes. The environment is cleaned of the
 * variables that would point git at another repository or index than the one the cwd implies.
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

const LOCATION_VARIABLES = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_COMMON_DIR", "GIT_NAMESPACE"];

/** `base` without the variables that relocate git, with the ones that make it literal and quiet. */
export const gitEnvironment = (base: NodeJS.ProcessEnv, indexFile?: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of LOCATION_VARIABLES) delete env[name];
  return {
    ...env,
    ...(indexFile === undefined ? {} : { GIT_INDEX_FILE: indexFile }),
    GIT_LITERAL_PATHSPECS: "1",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_TERMINAL_PROMPT: "0",
  };
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
