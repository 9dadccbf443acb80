/**
 * `tools.sandbox` at start-up: under "workspace", the bubblewrap sandbox every bash command and
 * the file tools go through, and one stderr line once its check is done — what it confines, or why
 * it cannot run and what to do (every bash call then fails saying the same; nothing runs unconfined).
 */
import { BUILT_IN_HIDDEN, bwrapSandbox, type BwrapSandbox, type SandboxUnavailable } from "@mm/node";
import { dirname, join } from "node:path";
import { userConfigPath, type MmConfig } from "../config/index.js";
import type { Log } from "./log.js";

/** The line logged once the sandbox's check is done: `unavailable` undefined when it works. */
export const sandboxLine = (tools: MmConfig["tools"], unavailable: SandboxUnavailable | undefined): string => {
  if (unavailable !== undefined) {
    return `mm-acp: tools.sandbox is "workspace" but ${unavailable.reason}: every bash command will fail until this is fixed. To fix: ${unavailable.remedy}.`;
  }
  const writable = ["the session's cwd", "a private /tmp", ...tools.writable].join(", ");
  const hidden = [...BUILT_IN_HIDDEN, ...tools.hidden].join(" ");
  return `mm-acp: bash runs sandboxed (bubblewrap): writable: ${writable}; network: ${tools.network ? "on" : "off"}; hidden: ${hidden}`;
};

/**
 * The sandbox when `tools.sandbox` is "workspace" (its check running in the background), else
 * undefined. mm's state dir (`stateDir`: the key that signs undo data) is hidden like the user's secrets.
 */
export const startSandbox = (config: MmConfig, home: string, log: Pick<Log, "info" | "warn">, stateDir?: string): BwrapSandbox | undefined => {
  if (config.tools.sandbox !== "workspace") return undefined;
  const tools = stateDir === undefined ? config.tools : { ...config.tools, hidden: [...config.tools.hidden, stateDir] };
  const { writable, network, hidden } = tools;
  // Read-only inside, besides the cwd's `.mm` (always, made when absent): the sessions directory (a command
  // must not forge what session/load replays), and where mm reads the user's own config and skills.
  const readOnly = [...(config.sessions.enabled ? [config.sessions.dir] : []), dirname(userConfigPath(process.env, home)), join(home, ".mm")];
  const sandbox = bwrapSandbox({ home, writable, network, hidden, readOnly });
  void sandbox.ready.then((checked) => (checked.isErr() ? log.warn(sandboxLine(tools, checked.error)) : log.info(sandboxLine(tools, undefined))));
  return sandbox;
};
