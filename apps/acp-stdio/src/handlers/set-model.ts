/**
 * `session/set_model` ("full" surface): the unstable method a few clients still send to switch models
 * (the AI SDK's ACP provider does), not in the SDK's schema any more, so registered as a custom
 * method with its own check of the params: `{ sessionId, modelId }`. It sets the session's model
 * option exactly as `session/set_config_option` with `configId: "model"` does (a value not offered
 * is refused with `invalid params`, nothing changed), answers `{}`, and announces the change as
 * `config_option_update` so a client showing the picker follows.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AppState } from "../state/app-state.js";
import { choicesOf } from "../session-settings/model-and-mode.js";
import { configOptionsOf, MODEL_OPTION_ID, refusalOf } from "../translate/session-config.js";
import { invalidSessionParams } from "./errors.js";

/** The method's name: not among the SDK's own. */
export const SET_MODEL_METHOD = "session/set_model";

/** What `session/set_model` carries. */
export type SetModelRequest = { readonly sessionId: string; readonly modelId: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The request's params, or `invalid params` naming what is wrong. */
export const setModelParams = (params: unknown): SetModelRequest => {
  const sessionId = isRecord(params) ? params.sessionId : undefined;
  const modelId = isRecord(params) ? params.modelId : undefined;
  if (typeof sessionId !== "string") throw invalidSessionParams(sessionId, "session/set_model takes { sessionId: string, modelId: string }: sessionId missing");
  if (typeof modelId !== "string") throw invalidSessionParams(sessionId, "session/set_model takes { sessionId: string, modelId: string }: modelId missing");
  return { sessionId, modelId };
};

export const setModel = async (app: AppState, params: SetModelRequest): Promise<Record<string, never>> => {
  const { sessionId, modelId } = params;
  const session = app.agent.session(sessionId);
  if (session === undefined) throw invalidSessionParams(sessionId, "unknown session");
  const models = await app.models.settled();
  const refusal = refusalOf(choicesOf(app, session, models), MODEL_OPTION_ID, modelId);
  if (refusal !== undefined) throw invalidSessionParams(sessionId, refusal);
  const changed = await app.agent.changeSettings(sessionId, { model: modelId });
  if (changed.isErr()) throw invalidSessionParams(sessionId, "unknown session");
  const update: acp.SessionUpdate = { sessionUpdate: "config_option_update", configOptions: configOptionsOf(choicesOf(app, changed.value, models)) };
  app.notify(sessionId, update);
  return {};
};
