/**
 * What the user changes about a live session between turns: the model its steps ask for and its
 * permission mode. A change takes effect at the next model step (a running turn keeps what it
 * started with) and is saved with the session.
 */
import type { PermissionMode } from "../session/permission-mode.js";
import type { AgentState, LiveSession } from "./agent-state.js";
import { persistSession } from "./persist.js";

/** A change of a session's settings; absent members stay as they are. */
export type SettingsChange = { readonly model?: string; readonly mode?: PermissionMode };

export const changeSettings = async (state: AgentState, live: LiveSession, change: SettingsChange): Promise<void> => {
  const next = { ...live.session, ...change };
  if (next.model === live.session.model && next.mode === live.session.mode) return;
  live.session = next;
  state.log(
    `session ${live.session.id}: ${change.model !== undefined ? `model ${change.model}` : ""}${change.model !== undefined && change.mode !== undefined ? ", " : ""}${change.mode !== undefined ? `mode ${change.mode}` : ""}`,
  );
  await persistSession(state, live);
};
