/**
 * How the process ends while the start-up front runs (front.ts), before the agent's lifecycle
 * (lifecycle.ts) is installed: there is no session nor command to stop yet, so a signal or stdout
 * closed under the front (EPIPE on the `initialize` answer) is one log line and exit 0, as the lifecycle
 * would end it with nothing to save; an uncaught exception is one line and exit 1. The agent calls
 * what this returns once its own lifecycle is in place.
 */
import { oneLine } from "../lifecycle.js";
import type { Log } from "../log.js";

const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

/** Installs the handlers; the function returned removes them. */
export const earlyLifecycle = (log: Pick<Log, "info" | "warn">): (() => void) => {
  const ending = (why: string) => (): void => {
    log.info(`[acp] shutting down: ${why}`);
    process.exit(0);
  };
  const bySignal = SIGNALS.map((signal) => [signal, ending(signal)] as const);
  for (const [signal, handler] of bySignal) process.on(signal, handler);
  const onStdoutError = ending("stdout closed (EPIPE)");
  process.stdout.on("error", onStdoutError);
  const onUncaught = (error: unknown): void => {
    log.warn(`mm: internal error: ${oneLine(error)}`);
    process.exit(1);
  };
  process.on("uncaughtException", onUncaught);
  return () => {
    for (const [signal, handler] of bySignal) process.off(signal, handler);
    process.stdout.off("error", onStdoutError);
    process.off("uncaughtException", onUncaught);
  };
};
