/**
 * The agent's state and dependencies, shared by the request-level functions beside this file
 * (start, prompt, cancel, load): a record, not a class receiving every request.
 */
import type { RandomHex } from "../ports/clock.js";
import type { FileSystem } from "../ports/file-system.js";
import type { SessionStore } from "../ports/session-store.js";
import { createCallIds } from "../session/call-ids.js";
import type { Session } from "../session/session.js";
import { createTurnQueue, type TurnQueue } from "../session/turn-queue.js";
import type { EngineDeps, TurnSettings } from "../turn/run-turn.js";

export type AgentDeps = Omit<EngineDeps, "callIds"> & {
  readonly random: RandomHex;
  /** Present when sessions are kept on disk (`sessions.enabled`). */
  readonly store: SessionStore | undefined;
  /** File access of one session's tools, when it differs from `fs` (e.g. the editor's buffers). */
  readonly sessionFs?: (sessionId: string) => FileSystem | undefined;
  /** A log line for the operator (stderr in the ACP app). */
  readonly log: (line: string) => void;
};

export type AgentSettings = TurnSettings & {
  /** The OS line of the system prompt, e.g. `linux x64`. */
  readonly os: string;
};

export type Agent = {
  readonly deps: EngineDeps & AgentDeps;
  readonly settings: AgentSettings;
  readonly sessions: Map<string, Session>;
  readonly queue: TurnQueue;
};

export const createAgent = (deps: AgentDeps, settings: AgentSettings): Agent => ({
  deps: { ...deps, callIds: createCallIds() },
  settings,
  sessions: new Map(),
  queue: createTurnQueue(),
});
