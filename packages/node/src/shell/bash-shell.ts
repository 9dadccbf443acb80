/**
 * bashShell: the Shell port on `bash -c`, run in a session of its own (which is also its process
 * group) with stdout and stderr merged into one bounded buffer (and handed to the request's listener
 * as they come). Timeout and abort kill the whole session, jobs moved to groups of their own included
 * (TERM, then KILL).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { stat } from "node:fs/promises";
import { err, ok, okAsync, ResultAsync, type Result } from "neverthrow";
import type { CommandWrapper } from "./command-wrapper.js";
import type { Shell, ShellError, ShellRequest, ShellResult } from "../core-types.js";
import { boundedOutput } from "./output-buffer.js";
import { REDACTED, redactingStream, secretSet, type Redact, type StreamRedact } from "../boundary/secrets.js";
import { NO_REAPER, type Reaper } from "./reaper.js";
import { sessionsAlive, signalSessions, terminateSession } from "./process-group.js";

/** Options of {@link bashShell}. */
export type BashShellOptions = {
  /** The bash to run; looked up on PATH when not absolute. Default `bash`. */
  readonly bashPath?: string;
  /** Environment of the command. Default `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Time between SIGTERM and SIGKILL. Default 2000 ms. */
  readonly killGraceMs?: number;
  /** How long to wait for output pipes held open by escaped processes after a kill. Default 250 ms. */
  readonly pipeGraceMs?: number;
  /** Runs every command through this (e.g. a sandbox); absent, bash is spawned directly. */
  readonly wrapper?: CommandWrapper;
  /**
   * Secrets replaced in every command's output, live and final (the model's key: with the sandbox off
   * a command can read it from the agent's `/proc/<pid>/environ`); values under 8 characters are not.
   */
  readonly redact?: readonly (string | undefined)[] | Redact;
  /** Told of every command's session started and ended, to kill what is left if the agent dies (reaper.ts). */
  readonly reaper?: Reaper;
};

export { REDACTED };

/** The Shell port on local bash, plus what the process needs when it ends. */
export type BashShell = Shell & {
  /**
   * Sends `signal` to every process of every session this shell started that may still have members
   * (commands running now, and background jobs they left behind, in whatever group); returns how many
   * sessions had a process signalled. Synchronous, so it also works in a process `exit` handler.
   */
  readonly signalAll: (signal: NodeJS.Signals) => number;
};

/**
 * Runs as `bash -c <this> <bash> <command>`: closes every descriptor but stdin, stdout and stderr (the
 * editor may have left some open without close-on-exec, a socket among them, and neither Node nor
 * bwrap closes inherited ones), makes stderr the stdout pipe, then execs the real `bash -c command`
 * in place, so the two streams share one pipe and keep their true order.
 */
const MERGE_THEN_RUN =
  'for __mm_fd in /proc/$$/fd/*; do __mm_fd=${__mm_fd##*/}; case $__mm_fd in 0|1|2) ;; *) eval "exec $__mm_fd>&-" 2>/dev/null ;; esac; done; unset __mm_fd; exec "$0" -c "$1" 2>&1';
const MAX_TIMER_MS = 2_147_483_647;
/** How long after a command ends the sessions are checked for emptiness (one pass over /proc for all). */
const PRUNE_DELAY_MS = 1000;

type Exit = { readonly code: number | null; readonly signal: NodeJS.Signals | null };
type StopReason = "timeout" | "abort";

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const checkWorkingDirectory = (cwd: string): ResultAsync<void, ShellError> =>
  ResultAsync.fromPromise(stat(cwd), () => ({
    kind: "spawn" as const,
    message: `working directory does not exist: ${cwd}`,
  })).andThen((info) => (info.isDirectory() ? ok(undefined) : err({ kind: "spawn" as const, message: `working directory is not a directory: ${cwd}` })));

const bashArgv = (bashPath: string, request: ShellRequest): readonly string[] => [bashPath, "-c", MERGE_THEN_RUN, bashPath, request.command];

const spawnCommand = (argv: readonly string[], env: NodeJS.ProcessEnv, request: ShellRequest): Result<ChildProcess, ShellError> => {
  const [program, ...args] = argv;
  if (program === undefined) return err({ kind: "spawn", message: "nothing to run" });
  try {
    return ok(
      spawn(program, args, {
        cwd: request.cwd,
        env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      }),
    );
  } catch (error) {
    return err({ kind: "spawn", message: messageOf(error) });
  }
};

type Timing = { readonly killGraceMs: number; readonly pipeGraceMs: number };

/**
 * Feeds a request's output listener: bytes decoded as UTF-8 as they come (a character split across
 * two reads waits for its end), the listener's exceptions swallowed.
 */
const liveText = (listener: ((text: string) => void) | undefined): ((chunk: Buffer) => void) | undefined => {
  if (listener === undefined) return undefined;
  const decoder = new TextDecoder("utf-8");
  return (chunk) => {
    const text = decoder.decode(chunk, { stream: true });
    if (text === "") return;
    try {
      listener(text);
    } catch {
      // The listener's failure is not the command's.
    }
  };
};

/** Watches one spawned child until it and its group are done; never rejects. */
const supervise = (child: ChildProcess, request: ShellRequest, timing: Timing): Promise<Result<ShellResult, ShellError>> =>
  new Promise((resolve) => {
    const output = boundedOutput(request.maxOutputBytes);
    let exit: Exit | null = null;
    let closed = false;
    let stopReason: StopReason | null = null;
    let groupDone = false;
    let pipeGraceOver = false;
    let settled = false;

    const cleanUp = (): void => {
      clearTimeout(timer);
      request.signal.removeEventListener("abort", onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
    };

    const settle = (result: Result<ShellResult, ShellError>): void => {
      if (settled) return;
      settled = true;
      cleanUp();
      resolve(result);
    };

    const maybeFinish = (): void => {
      if (exit === null || (stopReason !== null && !groupDone)) return;
      if (!closed && !pipeGraceOver) return;
      settle(
        ok({
          output: output.text(),
          exitCode: exit.code,
          signal: exit.signal,
          timedOut: stopReason === "timeout",
          cancelled: stopReason === "abort",
        }),
      );
    };

    const stop = (reason: StopReason): void => {
      if (stopReason !== null || settled || child.pid === undefined) return;
      stopReason = reason;
      void terminateSession(child.pid, { graceMs: timing.killGraceMs, pollMs: 50 }).then(() => {
        groupDone = true;
        maybeFinish();
        setTimeout(() => {
          pipeGraceOver = true;
          maybeFinish();
        }, timing.pipeGraceMs);
      });
    };

    function onAbort(): void {
      stop("abort");
    }

    const timer = setTimeout(() => stop("timeout"), Math.min(Math.max(0, request.timeoutMs), MAX_TIMER_MS));
    request.signal.addEventListener("abort", onAbort, { once: true });

    const live = liveText(request.onOutput);
    const onData = (chunk: Buffer): void => {
      output.push(chunk);
      if (!settled) live?.(chunk);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("error", (error) => {
      if (child.pid === undefined) settle(err({ kind: "spawn", message: messageOf(error) }));
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      maybeFinish();
    });
    child.on("close", () => {
      closed = true;
      maybeFinish();
    });
    if (request.signal.aborted) stop("abort");
  });

const cancelledBeforeStart: ShellResult = { output: "", exitCode: null, signal: null, timedOut: false, cancelled: true };

/**
 * The Shell port on local bash. A command runs as `bash -c command` in `request.cwd`, leading its own
 * session and process group, stdin closed. The result comes once bash has exited and its output is
 * closed; after a timeout or abort, once the session is empty or SIGKILLed (output pipes still held by
 * a process outside it are then abandoned after a short grace). A missing cwd, a bash that cannot
 * start or a command the wrapper refuses fails `spawn`; nothing throws.
 */
export const bashShell = (options: BashShellOptions = {}): BashShell => {
  const bashPath = options.bashPath ?? "bash";
  const wrapper = options.wrapper;
  const timing: Timing = { killGraceMs: options.killGraceMs ?? 2000, pipeGraceMs: options.pipeGraceMs ?? 250 };
  /**
   * Sessions started (each command's pid) and maybe still populated. Whether one has emptied takes a
   * pass over /proc (a job may have left bash's group), so that is done off every command's way: one
   * pass, PRUNE_DELAY_MS after a command ends, for all of them. They are untracked as they empty, so a
   * pid the kernel reuses is never killed by mistake.
   */
  const sessions = new Set<number>();
  const reaper = options.reaper ?? NO_REAPER;
  let pruneTimer: ReturnType<typeof setTimeout> | undefined;
  const forget = (sid: number): void => {
    sessions.delete(sid);
    reaper.untrack(sid);
  };
  const prune = (): void => {
    pruneTimer = undefined;
    const alive = sessionsAlive(sessions);
    for (const sid of sessions) if (!alive.has(sid)) forget(sid);
  };
  const pruneSoon = (): void => {
    if (pruneTimer !== undefined || sessions.size === 0) return;
    pruneTimer = setTimeout(prune, PRUNE_DELAY_MS);
    pruneTimer.unref?.();
  };
  const track = (child: ChildProcess): ChildProcess => {
    if (child.pid !== undefined) {
      sessions.add(child.pid);
      reaper.track(child.pid);
    }
    return child;
  };
  // One redaction for every output (boundary/secrets.ts): the host's function, or one over the values given.
  const given = options.redact;
  const redacted: Redact | undefined = given === undefined ? undefined : typeof given === "function" ? given : secretSet(given).redact;
  return {
    run: (asked) => {
      if (asked.signal.aborted) return okAsync(cancelledBeforeStart);
      const listener = asked.onOutput;
      // Live output redacted as a stream: a secret printed in two writes is held back until whole (boundary/secrets.ts).
      const live =
        redacted === undefined || listener === undefined
          ? undefined
          : "heldFrom" in redacted
            ? redactingStream(redacted as StreamRedact, listener)
            : { write: (text: string) => listener(redacted(text)), flush: () => undefined };
      const request: ShellRequest = live === undefined ? asked : { ...asked, onOutput: live.write };
      return checkWorkingDirectory(request.cwd)
        .andThen(() => (wrapper === undefined ? okAsync(bashArgv(bashPath, request)) : wrapper.wrap(bashArgv(bashPath, request), request)))
        .andThen((argv) => spawnCommand(argv, options.env ?? process.env, request).map(track))
        .andThen(
          (child) =>
            new ResultAsync(
              supervise(child, request, timing).then((result) => {
                pruneSoon();
                return result;
              }),
            ),
        )
        .map((result) => (wrapper === undefined ? result : wrapper.finish(result, request)))
        .map((result) => {
          try {
            live?.flush();
          } catch {
            // The listener's failure is not the command's.
          }
          return redacted === undefined ? result : { ...result, output: redacted(result.output) };
        });
    },
    signalAll: (signal) => {
      const signalled = signalSessions(sessions, signal);
      for (const sid of sessions) if (!signalled.has(sid)) forget(sid);
      return signalled.size;
    },
  };
};
