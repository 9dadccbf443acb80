/**
 * How the process ends: stdin closed, SIGTERM/SIGINT or a vanished editor (EPIPE) cancel every
 * turn, let the queue settle (sessions are saved as turns end), and exit within about 2 s.
 */
import { cancelSession } from "@mm/core";
import type { Served } from "./serve.js";

const GRACE_MS = 1500;

export const installLifecycle = (served: Served, log: (line: string) => void): void => {
  let ending = false;
  const shutdown = (why: string, code = 0): void => {
    if (ending) return;
    ending = true;
    log(`[acp] shutting down: ${why}`);
    for (const session of served.app.agent.sessions.values()) cancelSession(session);
    const timer = setTimeout(() => process.exit(code), GRACE_MS);
    timer.unref();
    void served.app.agent.queue.idle().then(() => process.exit(code));
  };
  void served.connection.closed.then(
    () => shutdown("the client closed the connection"),
    () => shutdown("the connection failed"),
  );
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGHUP", () => shutdown("SIGHUP"));
  process.stdout.on("error", () => shutdown("stdout closed (EPIPE)"));
};
