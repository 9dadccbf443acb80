/**
 * The agent as other programs see it: one record of request-level functions over state it owns
 * (see `agent-state.ts`). Each function lives in its own file beside this one.
 */
import { errAsync, ok, ResultAsync, type Result } from "neverthrow";
import { availableCommands, type AvailableCommand } from "../commands/slash-command.js";
import type { History } from "../history/message.js";
import type { PromptBlock } from "../prompt/prompt-blocks.js";
import { createCallIds } from "../session/call-ids.js";
import type { ReplayItem } from "../session/replay.js";
import { createTurnQueue } from "../session/turn-queue.js";
import { builtinTools } from "../tools/builtin-tools.js";
import type { Emit } from "../turn/events.js";
import { estimateTokens } from "../turn/token-estimate.js";
import { cancelLive, type AgentDeps, type AgentSettings, type AgentState, type LiveSession } from "./agent-state.js";
import { closeAgent } from "./close-agent.js";
import { DEFAULT_AGENT_SETTINGS } from "./default-settings.js";
import { loadSession, type LoadError } from "./load-session.js";
import { promptSession, type PromptResult, type SessionRefused } from "./prompt-session.js";
import { startSession, type SessionOptions } from "./start-session.js";

/** What the agent shows of a session: a snapshot, not a handle. */
export type SessionInfo = {
  readonly id: string;
  readonly cwd: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly history: History;
  /** Prompts of this session running or queued. */
  readonly running: number;
  /** The model's reported input tokens of the last step; undefined once forgotten (or never reported). */
  readonly lastInputTokens: number | undefined;
  /** Tokens in use: the model's last report, else an estimate of the history. */
  readonly tokensInUse: number;
};

/** A loaded session and what to replay of it. */
export type LoadedSession = { readonly session: SessionInfo; readonly replay: readonly ReplayItem[] };

/** A request named a session this agent does not have. */
export type UnknownSession = { readonly kind: "unknown-session"; readonly sessionId: string };

/** An agent: Bob's sessions and turns over the ports it was given. */
export type Agent = {
  /** Creates a session in `cwd` (absolute), saved at once when there is a store. */
  readonly startSession: (cwd: string, options?: SessionOptions) => Promise<SessionInfo>;
  /**
   * Loads a stored session of `cwd`, replacing (and cancelling) a live one of the same id, with the
   * current system prompt and no grants; the replay describes its history.
   */
  readonly loadSession: (cwd: string, sessionId: string, options?: SessionOptions) => ResultAsync<LoadedSession, LoadError>;
  /**
   * Runs a prompt: a slash command (`/new`, `/compact`) or a turn, after every earlier prompt of the
   * agent (turns are serialised). Events go to `emit` as they happen; a tool call is reported done once
   * its result is saved. Refused, before anything runs, when the store says another process holds the
   * session or changed it. Never rejects.
   */
  readonly prompt: (sessionId: string, blocks: readonly PromptBlock[], emit: Emit) => ResultAsync<PromptResult, UnknownSession | SessionRefused>;
  /** Cancels the session's running and queued prompts; false for an unknown session. */
  readonly cancel: (sessionId: string) => boolean;
  /** Cancels every session's prompts (e.g. at shutdown). */
  readonly cancelAll: () => void;
  /** A snapshot of a session, if the agent has it. */
  readonly session: (sessionId: string) => SessionInfo | undefined;
  /** Settles once every prompt queued so far has settled (and its session saved). */
  readonly whenIdle: () => Promise<void>;
  /** The slash commands a front end can offer: `/new`, `/compact`, then one per skill. */
  readonly commands: () => readonly AvailableCommand[];
  /**
   * Lets go of every session once the prompts queued so far have settled: each left on disk as one
   * document and free for other processes. Call it before exiting; the agent has no sessions after it.
   */
  readonly close: () => Promise<void>;
};

const infoOf = (live: LiveSession): SessionInfo => {
  const { id, cwd, createdAt, history, lastInputTokens } = live.session;
  return { id, cwd, createdAt, history, running: live.inFlight.size, lastInputTokens, tokensInUse: lastInputTokens ?? estimateTokens(history) };
};

const NO_LOG = (): void => undefined;

/** The log, writing each distinct line once. */
const onceEach = (log: (line: string) => void): ((line: string) => void) => {
  const seen = new Set<string>();
  return (line) => {
    if (seen.has(line)) return;
    seen.add(line);
    log(line);
  };
};

/** An agent over `deps`; `settings` default to {@link DEFAULT_AGENT_SETTINGS}. */
export const createAgent = (deps: AgentDeps, settings: Partial<AgentSettings> = {}): Agent => {
  const log = deps.log ?? NO_LOG;
  const state: AgentState = {
    deps,
    settings: { ...DEFAULT_AGENT_SETTINGS, ...settings },
    tools: deps.tools ?? builtinTools,
    sessions: new Map(),
    queue: createTurnQueue(),
    callIds: createCallIds(),
    log,
    warn: onceEach(log),
  };
  const find = (id: string): LiveSession | undefined => state.sessions.get(id);
  return {
    startSession: async (cwd, options) => infoOf(await startSession(state, cwd, options)),
    loadSession: (cwd, id, options) => loadSession(state, cwd, id, options).map(({ live, replay }) => ({ session: infoOf(live), replay })),
    prompt: (sessionId, blocks, emit) => {
      const live = find(sessionId);
      if (live === undefined) return errAsync({ kind: "unknown-session", sessionId });
      return new ResultAsync(
        promptSession(state, live, blocks, emit).catch(
          (error: unknown): Result<PromptResult, SessionRefused> =>
            ok({ stopReason: "failed", error: `mm failed: ${error instanceof Error ? error.message : String(error)}` }),
        ),
      );
    },
    cancel: (id) => {
      const live = find(id);
      if (live !== undefined) cancelLive(live);
      return live !== undefined;
    },
    cancelAll: () => {
      for (const live of state.sessions.values()) cancelLive(live);
    },
    session: (id) => {
      const live = find(id);
      return live === undefined ? undefined : infoOf(live);
    },
    whenIdle: () => state.queue.idle(),
    commands: () => availableCommands(deps.skills.list()),
    close: () => closeAgent(state),
  };
};
