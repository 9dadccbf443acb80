/**
 * `initialize`: logs the client, remembers its capabilities, answers the spec's fixed values
 * (initialize-answer.ts).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { fullSurface, type AppState } from "../app-state.js";
import { initializeAnswer } from "../initialize-answer.js";

export const initialize = (app: AppState, params: acp.InitializeRequest): acp.InitializeResponse => {
  const client = params.clientInfo ? `${params.clientInfo.name} ${params.clientInfo.version ?? ""}`.trim() : "unknown client";
  app.log(`initialize: ${client}, protocol version ${params.protocolVersion}`);
  app.peer.capabilities = params.clientCapabilities;
  if (fullSurface(app)) app.models.warm();
  return initializeAnswer(app.config, params);
};
