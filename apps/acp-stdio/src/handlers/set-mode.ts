/** `session/set_mode` ("full" surface): the permission mode, for clients that use modes; announced both ways. */
import type * as acp from "@agentclientprotocol/sdk";
import type { AppState } from "../state/app-state.js";
import { choicesOf } from "../session-settings/model-and-mode.js";
import { configOptionsOf, isOfferedMode, modeRefusal } from "../translate/session-config.js";
import { invalidSessionParams } from "./errors.js";

export const setMode = async (app: AppState, params: acp.SetSessionModeRequest): Promise<acp.SetSessionModeResponse> => {
  const { sessionId, modeId } = params;
  if (app.agent.session(sessionId) === undefined) throw invalidSessionParams(sessionId, "unknown session");
  const sandbox = app.sandboxMode?.offered === true;
  if (!isOfferedMode(modeId, sandbox)) throw invalidSessionParams(sessionId, modeRefusal(modeId, sandbox));
  const changed = await app.agent.changeSettings(sessionId, { mode: modeId });
  if (changed.isErr()) throw invalidSessionParams(sessionId, "unknown session");
  app.notify(sessionId, { sessionUpdate: "current_mode_update", currentModeId: modeId });
  app.notify(sessionId, { sessionUpdate: "config_option_update", configOptions: configOptionsOf(choicesOf(app, changed.value, await app.models.settled())) });
  return {};
};
