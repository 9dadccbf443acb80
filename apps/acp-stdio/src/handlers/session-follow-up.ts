/**
 * What follows a session's answer to `session/new`, `session/load` and `session/resume`, always in one
 * order: what the stored file asked for and did not get, how full the context is, the slash commands,
 * the title and a model list that came late (`settingsReply`'s `later`), then the lines the session's MCP
 * servers held back until the editor knows the session id. `session/new` and `resume` send it once their
 * response is out; `session/load` at the end of its replay (the editor asked for that id).
 */
import type { LoadedSession, SessionInfo } from "@mm/core";
import { withPermissionsCommand } from "../permissions/permissions-command.js";
import { tellUnproven } from "../session-settings/unproven-settings.js";
import { commandsUpdate } from "../translate/commands.js";
import { usageUpdate } from "../translate/usage.js";
import { type AppState, fullSurface } from "../state/app-state.js";

export type SessionFollowUp = {
  /** A loaded session: what its file asked for and did not get (said when there is any). */
  readonly unproven?: LoadedSession["unproven"];
  /** A loaded session: how full its context is (`usage_update`). */
  readonly usage?: boolean;
  /** The session's slash commands (`available_commands_update`). */
  readonly commands?: boolean;
  /** The "full" surface's settings sent later (`settingsReply`'s `later`). */
  readonly later?: () => void;
  /** The session's MCP servers (`attachMcpServers`): what they held back is told now. */
  readonly mcp?: { readonly released: () => void };
};

/** The session's slash commands, `/permissions` among them when the rules are on. */
const sendCommands = (app: AppState, sessionId: string): void =>
  app.notify(sessionId, commandsUpdate(app.rules !== undefined ? withPermissionsCommand(app.agent.commands()) : app.agent.commands()));

/** Sends what follows the answer about `session`: the parts given, in the order above. */
export const sendFollowUp = (app: AppState, session: Pick<SessionInfo, "id" | "tokensInUse" | "cost">, parts: SessionFollowUp): void => {
  if (parts.unproven !== undefined) tellUnproven(app, session.id, parts.unproven);
  if (parts.usage === true) app.notify(session.id, usageUpdate(session.tokensInUse, app.config.model.contextWindow, session.cost, fullSurface(app)));
  if (parts.commands === true) sendCommands(app, session.id);
  parts.later?.();
  parts.mcp?.released();
};
