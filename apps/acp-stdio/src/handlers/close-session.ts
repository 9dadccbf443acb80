/** `session/close` ("full" surface): cancels the session's turns and frees it (its MCP servers end); its file stays. */
import type * as acp from "@agentclientprotocol/sdk";
import type { AppState } from "../state/app-state.js";
import { invalidSessionParams } from "./errors.js";

export const closeSession = async (app: AppState, params: acp.CloseSessionRequest): Promise<acp.CloseSessionResponse> => {
  if (!app.agent.closeSession(params.sessionId)) throw invalidSessionParams(params.sessionId, "unknown session");
  await app.mcp.close(params.sessionId);
  return {};
};
