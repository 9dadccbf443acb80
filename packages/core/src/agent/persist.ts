/** Saves a session through the store when sessions are enabled; a failed save is logged, never fatal. */
import { describeStoreError } from "../ports/session-store.js";
import type { History } from "../history/message.js";
import type { Session } from "../session/session.js";
import type { Agent } from "./agent.js";

/** Saves a history under `id`; true when it was written. */
export const saveHistory = async (agent: Agent, id: string, cwd: string, createdAt: number, history: History): Promise<boolean> => {
  const store = agent.deps.store;
  if (store === undefined) return false;
  const now = agent.deps.clock.now();
  const saved = await store.save({ id, cwd, createdAt, updatedAt: now, history });
  if (saved.isErr()) agent.deps.log(`session ${id}: could not save: ${describeStoreError(saved.error)}`);
  return saved.isOk();
};

/** Saves the session, unless a `session/load` has replaced it since (the loaded one is the truth). */
export const persistSession = async (agent: Agent, session: Session): Promise<void> => {
  if (agent.sessions.get(session.id) !== session) return;
  await saveHistory(agent, session.id, session.cwd, session.createdAt, session.history);
};
