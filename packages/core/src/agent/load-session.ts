/**
 * `session/load`: read the stored session, put the current system prompt in front, register it with
 * an empty allow-always set, move the call-id counter past it, and say what to replay. A session of
 * that id still running in this process is cancelled first, and the file is read in the turn queue,
 * once that turn has ended and saved: the replay shows what was last saved, and the old turn can
 * never overwrite the loaded session.
 */
import { err, ok, ResultAsync, type Result } from "neverthrow";
import { withSystemPrompt } from "../history/message.js";
import type { StoredSession, StoreError } from "../ports/session-store.js";
import { replayOf, type ReplayItem } from "../session/replay.js";
import { sessionOf } from "../session/session.js";
import { titleOfHistory } from "../session/title.js";
import { cancelLive, type AgentState, type LiveSession } from "./agent-state.js";
import { liveSessionOf, toolboxFor, type SessionOptions } from "./start-session.js";
import { systemPromptFor } from "./system-prompt-for.js";

/** Why a session could not be loaded: the store's reason, or no store at all. */
export type LoadError = StoreError | { readonly kind: "disabled" };

const NEVER = new AbortController().signal;

/** A loaded session, its replay, and the settings its file asked for that the store could not prove (StoredSession). */
type Loaded = { readonly live: LiveSession; readonly replay: readonly ReplayItem[]; readonly unproven?: StoredSession["unproven"] };

/** Loads a stored session into the agent (see the module comment); the live session and its replay. */
export const loadSession = (state: AgentState, cwd: string, id: string, options: SessionOptions = {}): ResultAsync<Loaded, LoadError> => {
  const store = state.deps.store;
  if (store === undefined) return new ResultAsync(Promise.resolve(err({ kind: "disabled" } as const)));
  const running = state.sessions.get(id);
  if (running !== undefined) cancelLive(running);
  const load = async (): Promise<Result<Loaded, LoadError>> => {
    const stored = await store.load(cwd, id);
    if (stored.isErr()) return err(stored.error);
    const toolbox = toolboxFor(state, options);
    const history = withSystemPrompt(stored.value.history, await systemPromptFor(state, cwd, toolbox, options.roots));
    state.callIds.bumpPast(history);
    const { title, model, mode, effort, cost, unproven } = stored.value;
    const settings = {
      title: title ?? titleOfHistory(history),
      ...(model !== undefined ? { model } : {}),
      ...(mode !== undefined ? { mode } : {}),
      ...(effort !== undefined ? { effort } : {}),
      ...(cost !== undefined ? { cost } : {}),
    };
    const live = liveSessionOf(state, sessionOf(id, cwd, history, stored.value.createdAt, settings), toolbox, options.roots);
    state.sessions.set(id, live);
    const place = state.settings.home !== undefined ? { cwd, home: state.settings.home } : { cwd };
    return ok({ live, replay: replayOf(history, live.toolbox, place), ...(unproven !== undefined ? { unproven } : {}) });
  };
  return new ResultAsync(state.queue.run(id, NEVER, load, () => err({ kind: "io", id, message: "cancelled" })));
};
