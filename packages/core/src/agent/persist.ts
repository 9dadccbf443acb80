/** Saves a session through the store when there is one; a failed save is logged, never fatal. */
import { describeStoreError, type StoredSession } from "../ports/session-store.js";
import type { Session } from "../session/session.js";
import type { AgentState, LiveSession } from "./agent-state.js";

/** The session as the store keeps it, written now. */
const storedOf = (session: Session, updatedAt: number): StoredSession => ({
  id: session.id,
  cwd: session.cwd,
  createdAt: session.createdAt,
  updatedAt,
  history: session.history,
  ...(session.title !== undefined ? { title: session.title } : {}),
  ...(session.model !== undefined ? { model: session.model } : {}),
  ...(session.mode !== "ask" ? { mode: session.mode } : {}),
});

/** Saves `session` (under its own id); true when it was written. */
export const saveSession = async (state: AgentState, session: Session): Promise<boolean> => {
  const store = state.deps.store;
  if (store === undefined) return false;
  const saved = await store.save(storedOf(session, state.deps.clock.now()));
  if (saved.isErr()) state.problem(`session ${session.id}: could not save: ${describeStoreError(saved.error)}`);
  return saved.isOk();
};

/** Saves the session, unless a load has replaced it since (the loaded one is the truth). */
export const persistSession = async (state: AgentState, live: LiveSession): Promise<void> => {
  if (state.sessions.get(live.session.id) !== live) return;
  await saveSession(state, live.session);
};
