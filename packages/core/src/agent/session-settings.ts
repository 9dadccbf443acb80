/**
 * What the user changes about a live session between turns: the model its steps ask for and its
 * permission mode. A change takes effect at the next model step (a running turn keeps what it
 * started with) and is saved with the session.
 */
import type { PermissionMode } from "../vocabulary/permission-mode.js";
import type { AgentState, LiveSession } from "./agent-state.js";
import { persistSession } from "./persist.js";

/** A change of a session's settings; absent members stay as they are. */
/** `effort: null` goes back to the server's default effort. */
export type SettingsChange = { readonly model?: string; readonly mode?: PermissionMode; readonly effort?: string | null };

export const changeSettings = async (state: AgentState, live: LiveSession, change: SettingsChange): Promise<void> => {
  const { effort, ...rest } = change;
  const next = { ...live.session, ...rest, ...(effort !== undefined ? { effort: effort ?? undefined } : {}) };
  if (next.model === live.session.model && next.mode === live.session.mode && next.effort === live.session.effort) return;
  live.session = next;
  const said = [
    ...(change.model !== undefined ? [`model ${change.model}`] : []),
    ...(change.mode !== undefined ? [`mode ${change.mode}`] : []),
    ...(effort !== undefined ? [`reasoning effort ${effort ?? "default"}`] : []),
  ];
  state.log(`session ${live.session.id}: ${said.join(", ")}`);
  await persistSession(state, live);
};
