/** Saves a session through the store when sessions are enabled; a failed save is logged, never fatal. */
import { describeStoreError } from "../ports/session-store.js";
import type { History } from "../history/message.js";
import type { Session } from "../session/session.js";
import type { Agent } from "./agent.js";

export const saveHistory = async (agent: Agent, id: string, cwd: string, createdAt: number, history: History): Promise<void> => {
  const store = agent.deps.store;
  if (store === undefined) return;
  const now = agent.deps.clock.now();
  const saved = await store.save({ id, cwd, createdAt, updatedAt: now, history });
  if (saved.isErr()) agent.deps.log(`session ${id}: could not save: ${describeStoreError(saved.error)}`);
};

export const persistSession = (agent: Agent, session: Session): Promise<void> =>
  saveHistory(agent, session.id, session.cwd, session.createdAt, session.history);
