/** Saves a session through the store when there is one; a failed save is logged, never fatal. */
import type { History } from "../history/message.js";
import { describeStoreError } from "../ports/session-store.js";
import type { AgentState, LiveSession } from "./agent-state.js";

/** Saves a history under `id`; true when it was written. */
export const saveHistory = async (state: AgentState, id: string, cwd: string, createdAt: number, history: History): Promise<boolean> => {
  const store = state.deps.store;
  if (store === undefined) return false;
  const saved = await store.save({ id, cwd, createdAt, updatedAt: state.deps.clock.now(), history });
  if (saved.isErr()) state.problem(`session ${id}: could not save: ${describeStoreError(saved.error)}`);
  return saved.isOk();
};

/** Saves the session, unless a load has replaced it since (the loaded one is the truth). */
export const persistSession = async (state: AgentState, live: LiveSession): Promise<void> => {
  if (state.sessions.get(live.session.id) !== live) return;
  const { id, cwd, createdAt, history } = live.session;
  await saveHistory(state, id, cwd, createdAt, history);
};
