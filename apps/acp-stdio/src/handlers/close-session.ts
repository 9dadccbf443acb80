/** `session/close` ("full" surface): cancels the session's turns and frees it; its file stays. */
import type * as acp from "@agentclientprotocol/sdk";
import type { AppState } from "../app-state.js";
import { invalidSessionParams } from "../wire/errors.js";

export const closeSession = (app: AppState, params: acp.CloseSessionRequest): acp.CloseSessionResponse => {
  if (!app.agent.closeSession(params.sessionId)) throw invalidSessionParams(params.sessionId, "unknown session");
  return {};
};
