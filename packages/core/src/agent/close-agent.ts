/** Closing an agent: once its queue is idle, every session is released by the store and forgotten. */
import { describeStoreError } from "../ports/session-store.js";
import type { AgentState } from "./agent-state.js";

/** Releases every live session (see `Agent.close`); problems are logged, never thrown. */
export const closeAgent = async (state: AgentState): Promise<void> => {
  await state.queue.idle();
  const store = state.deps.store;
  const sessions = [...state.sessions.values()];
  state.sessions.clear();
  if (store === undefined) return;
  await Promise.all(sessions.map(({ session: { id, cwd } }) => releaseStored(state, cwd, id)));
};

/** Lets the store release a session (tidy on disk, free for other processes); a problem is logged. */
export const releaseStored = async (state: AgentState, cwd: string, id: string): Promise<void> => {
  const released = await state.deps.store?.release(cwd, id);
  if (released?.isErr() === true) state.log(`session ${id}: could not tidy up: ${describeStoreError(released.error)}`);
};
