/**
 * How the process ends: stdin closed, SIGTERM/SIGINT/SIGHUP or a vanished editor (EPIPE on stdout)
 * cancel every turn (model streams aborted, bash groups sent SIGTERM), let the queue settle so the
 * sessions are saved as their turns end, close the agent (each session left as one document, its lock
 * dropped), and exit within about 1.5 s. Command groups still alive 0.5 s into the shutdown (a command
 * ignoring SIGTERM, a background job) are SIGKILLed, and again at exit, so no child outlives the agent. Writes to a closed stderr are ignored; an uncaught exception
 * is one stderr line and a clean shutdown, not a stack trace.
 */
import type { Log } from "./log.js";
import type { Served } from "./serve.js";

/** Longest wait for running turns to stop and save before exiting anyway. */
const GRACE_MS = 1500;
/** When command groups that are still alive get SIGKILL, so their turns end and save within the grace. */
const KILL_AFTER_MS = 500;

/** The part of the shell the lifecycle needs: signal every command group it started. */
export type ShellGroups = { readonly signalAll: (signal: NodeJS.Signals) => number };

/** An error as one log line. */
export const oneLine = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split("\n")[0]!.slice(0, 500);

export const installLifecycle = (served: Served, log: Pick<Log, "info" | "warn">, shell?: ShellGroups): void => {
  let ending = false;
  const exit = (code: number): never => {
    shell?.signalAll("SIGKILL");
    served.app.mcp.killAll();
    process.exit(code);
  };
  const shutdown = (why: string, code = 0): void => {
    if (ending) return;
    ending = true;
    log.info(`[acp] shutting down: ${why}`);
    served.app.agent.cancelAll();
    void served.app.mcp.closeAll();
    shell?.signalAll("SIGTERM");
    setTimeout(() => shell?.signalAll("SIGKILL"), KILL_AFTER_MS).unref();
    setTimeout(() => exit(code), GRACE_MS).unref();
    void served.app.agent.close().then(() => exit(code));
  };
  void served.connection.closed.then(
    () => shutdown("the client closed the connection"),
    () => shutdown("the connection failed"),
  );
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGHUP", () => shutdown("SIGHUP"));
  process.stdout.on("error", () => shutdown("stdout closed (EPIPE)"));
  // The editor gone, stderr is often closed too: a failed log line must not become a crash. Log lines
  // go straight to fd 2; the stream (for console.error) is made after start-up, not for it.
  setImmediate(() => process.stderr.on("error", () => undefined));
  process.on("exit", () => {
    shell?.signalAll("SIGKILL");
    served.app.mcp.killAll();
  });
  process.on("uncaughtException", (error) => {
    log.warn(`mm-acp: internal error: ${oneLine(error)}`);
    shutdown("internal error", 1);
  });
  process.on("unhandledRejection", (reason) => log.warn(`mm-acp: internal error (unhandled rejection): ${oneLine(reason)}`));
};
