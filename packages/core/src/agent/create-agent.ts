/**
 * The agent as other programs see it: one record of request-level functions over state it owns
 * (see `agent-state.ts`). Each function lives in its own file beside this one.
 */
import { errAsync, ok, okAsync, ResultAsync, type Result } from "neverthrow";
import { foldSession } from "./persist.js";
import { availableCommands, type AvailableCommand } from "../commands/slash-command.js";
import type { History } from "../history/message.js";
import type { PromptBlock } from "../prompt/prompt-blocks.js";
import { createCallIds } from "../session/call-ids.js";
import type { PermissionMode } from "../vocabulary/permission-mode.js";
import type { ReplayItem } from "../session/replay.js";
import type { StoredSession, StoredSessionSummary } from "../ports/session-store.js";
import { createPlaceLock } from "../session/place-lock.js";
import { createTurnQueues } from "../session/turn-queue.js";
import { builtinTools } from "../tools/builtin-tools.js";
import type { Emit } from "../turn/events.js";
import { estimateTokens } from "../history/token-estimate.js";
import { cancelLive, forgetLive, type AgentDeps, type AgentSettings, type AgentState, type LiveSession } from "./agent-state.js";
import { closeAgent, releaseStored } from "./close-agent.js";
import { DEFAULT_AGENT_SETTINGS } from "./default-settings.js";
import { loadSession, type LoadError } from "./load-session.js";
import { promptSession, type PromptResult, type SessionRefused } from "./prompt-session.js";
import { changeSettings, type SettingsChange } from "./session-settings.js";
import { replaceSessionTools } from "./session-tools.js";
import type { Tool } from "../tools/tool.js";
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
  /** One line naming the conversation; undefined until its first prompt. */
  readonly title: string | undefined;
  /** The model its steps ask for; undefined: the model adapter's default. */
  readonly model: string | undefined;
  readonly mode: PermissionMode;
  /** The reasoning effort its steps ask for; undefined: the server's default. */
  readonly effort: string | undefined;
  /** What its model steps cost so far in US dollars; undefined while no price is known. */
  readonly cost: number | undefined;
  /** The names of the tools its model is offered. */
  readonly tools: readonly string[];
};

/** A loaded session and what to replay of it; `unproven`: the mode and model its file asked for and did not get (StoredSession). */
export type LoadedSession = { readonly session: SessionInfo; readonly replay: readonly ReplayItem[]; readonly unproven?: StoredSession["unproven"] };

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
  /**
   * Has the store make the session's document whole (its journal folded in), in the background: call
   * it once a prompt's answer is out (the app does, after the response is written). Does nothing for an
   * unknown session or a store without `fold`.
   */
  readonly foldSession: (sessionId: string) => void;
  /** A snapshot of a session, if the agent has it. */
  readonly session: (sessionId: string) => SessionInfo | undefined;
  /** Sets a live session's additional directories (a session/resume of a session open here); from its next tool call on. */
  readonly setRoots: (sessionId: string, roots: readonly string[]) => void;
  /** Settles once every prompt queued so far has settled (and its session saved). */
  readonly whenIdle: () => Promise<void>;
  /** The slash commands a front end can offer: `/new`, `/compact`, then one per skill. */
  readonly commands: () => readonly AvailableCommand[];
  /** Changes a session's model or permission mode from its next model step on, and saves it. */
  readonly changeSettings: (sessionId: string, change: SettingsChange) => ResultAsync<SessionInfo, UnknownSession>;
  /** Cancels a session's prompts and forgets it (its file stays); false for an unknown session. */
  readonly closeSession: (sessionId: string) => boolean;
  /** The stored sessions of `cwd`, newest first. */
  readonly listSessions: (cwd: string) => ResultAsync<readonly StoredSessionSummary[], LoadError>;
  /**
   * Replaces a session's own tools (beside the agent's), from its next model step on; its system
   * prompt follows. A running turn keeps the tools it started with.
   */
  readonly setSessionTools: (sessionId: string, tools: readonly Tool[]) => ResultAsync<SessionInfo, UnknownSession>;
  /** Removes a stored session of `cwd` (closing it first when it is open). */
  readonly removeSession: (cwd: string, sessionId: string) => ResultAsync<void, LoadError>;
  /**
   * Lets go of every session once the prompts queued so far have settled: each left on disk as one
   * document and free for other processes. Call it before exiting; the agent has no sessions after it.
   */
  readonly close: () => Promise<void>;
};

const infoOf = (live: LiveSession): SessionInfo => {
  const { id, cwd, createdAt, history, lastInputTokens, title, model, mode, effort, cost } = live.session;
  return {
    id,
    cwd,
    createdAt,
    history,
    running: live.inFlight.size,
    lastInputTokens,
    tokensInUse: lastInputTokens ?? estimateTokens(history),
    title,
    model,
    mode,
    effort,
    cost,
    tools: [...live.toolbox.byName.keys()],
  };
};

const DISABLED: LoadError = { kind: "disabled" };

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
  const problem = deps.warn ?? log;
  const state: AgentState = {
    deps,
    settings: { ...DEFAULT_AGENT_SETTINGS, ...settings },
    tools: deps.tools ?? builtinTools,
    sessions: new Map(),
    queue: createTurnQueues(settings.sessionsSideBySide === true),
    places: createPlaceLock(),
    callIds: createCallIds(),
    log,
    problem,
    warn: onceEach(problem),
  };
  const find = (id: string): LiveSession | undefined => state.sessions.get(id);
  /** Runs `change` on a live session and answers its snapshot after. */
  const updated = (id: string, change: (live: LiveSession) => Promise<void>): ResultAsync<SessionInfo, UnknownSession> => {
    const live = find(id);
    if (live === undefined) return errAsync({ kind: "unknown-session", sessionId: id });
    return okAsync(undefined).map(async () => {
      await change(live);
      return infoOf(live);
    });
  };
  return {
    startSession: async (cwd, options) => infoOf(await startSession(state, cwd, options)),
    loadSession: (cwd, id, options) =>
      loadSession(state, cwd, id, options).map(({ live, replay, unproven }) => ({
        session: infoOf(live),
        replay,
        ...(unproven !== undefined ? { unproven } : {}),
      })),
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
    foldSession: (id) => {
      const live = find(id);
      if (live !== undefined) foldSession(state, live);
    },
    session: (id) => {
      const live = find(id);
      return live === undefined ? undefined : infoOf(live);
    },
    setRoots: (id, roots) => {
      const live = find(id);
      if (live !== undefined) live.roots = roots;
    },
    whenIdle: () => state.queue.idle(),
    commands: () => availableCommands(deps.skills.list(), { undo: deps.undo !== undefined }),
    changeSettings: (id, change) => updated(id, (live) => changeSettings(state, live, change)),
    setSessionTools: (id, tools) => updated(id, (live) => replaceSessionTools(state, live, tools)),
    closeSession: (id) => {
      const live = find(id);
      if (live === undefined) return false;
      forgetLive(state, live);
      state.log(`session ${id}: closed`);
      // Once its cancelled turn has ended, the session is left tidy on disk and free for other processes.
      void state.queue.idle(id).then(() => releaseStored(state, live.session.cwd, id));
      // Sessions not kept: nothing can load it again, so its undo data (in memory) would only be held.
      if (deps.store === undefined && deps.undo !== undefined) {
        const undo = deps.undo;
        void state.queue.idle(id).then(() =>
          undo.saveLog({ cwd: live.session.cwd, sessionId: id }, { turns: [] }).match(
            () => undefined,
            (e) => problem(`session ${id}: undo data not dropped: ${e.message}`),
          ),
        );
      }
      return true;
    },
    listSessions: (cwd) => (deps.store === undefined ? errAsync(DISABLED) : deps.store.list(cwd)),
    removeSession: (cwd, id) => {
      if (deps.store === undefined) return errAsync(DISABLED);
      const live = find(id);
      if (live !== undefined) forgetLive(state, live);
      // Its undo data goes with it (an empty log leaves no file behind); a failure there is only logged.
      return deps.store.remove(cwd, id).andThen(() =>
        ResultAsync.fromSafePromise(
          (deps.undo?.saveLog({ cwd, sessionId: id }, { turns: [] }) ?? okAsync(undefined)).match(
            () => undefined,
            (e) => problem(`session ${id}: undo data not removed: ${e.message}`),
          ),
        ),
      );
    },
    close: () => closeAgent(state),
  };
};
