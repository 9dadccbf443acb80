/**
 * `session/set_config_option` ("full" surface): sets the session's model, permission mode or reasoning effort, from its
 * next model step on, and answers every option; a mode change is also told as `current_mode_update`.
 * An unknown session, option or value changes nothing and answers `invalid params` saying why.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionMode } from "@mm/core";
import type { AppState } from "../state/app-state.js";
import { choicesOf, takesEffort } from "../session-settings/model-and-mode.js";
import { configOptionsOf, EFFORT_OPTION_ID, MODE_OPTION_ID, MODEL_OPTION_ID, refusalOf } from "../translate/session-config.js";
import { invalidSessionParams } from "./errors.js";

export const setConfigOption = async (app: AppState, params: acp.SetSessionConfigOptionRequest): Promise<acp.SetSessionConfigOptionResponse> => {
  const { sessionId, configId, value } = params;
  const session = app.agent.session(sessionId);
  if (session === undefined) throw invalidSessionParams(sessionId, "unknown session");
  const models = await app.models.settled();
  const refusal = refusalOf(choicesOf(app, session, models), configId, value);
  if (refusal !== undefined) throw invalidSessionParams(sessionId, refusal);
  // A model that takes no effort drops the session's: no server is sent one it would refuse.
  const change =
    configId === MODEL_OPTION_ID
      ? { model: value as string, ...(takesEffort(app, value as string) ? {} : { effort: null }) }
      : configId === EFFORT_OPTION_ID
        ? { effort: value === "default" ? null : (value as string) }
        : { mode: value as PermissionMode };
  const changed = await app.agent.changeSettings(sessionId, change);
  if (changed.isErr()) throw invalidSessionParams(sessionId, "unknown session");
  if (configId === MODE_OPTION_ID) app.notify(sessionId, { sessionUpdate: "current_mode_update", currentModeId: changed.value.mode });
  return { configOptions: configOptionsOf(choicesOf(app, changed.value, models)) };
};
