/**
 * `initialize`: logs the client, remembers its capabilities, answers the spec's fixed values (the
 * "full" surface adds its auth method).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { AGENT_INFO } from "../agent-info.js";
import { advertisedAuthMethods } from "../auth-methods.js";
import type { AppState } from "../app-state.js";

export const initialize = (app: AppState, params: acp.InitializeRequest): acp.InitializeResponse => {
  const client = params.clientInfo ? `${params.clientInfo.name} ${params.clientInfo.version ?? ""}`.trim() : "unknown client";
  app.log(`initialize: ${client}, protocol version ${params.protocolVersion}`);
  app.peer.capabilities = params.clientCapabilities;
  return {
    protocolVersion: 1,
    agentCapabilities: app.config.sessions.enabled ? { loadSession: true } : {},
    agentInfo: { ...AGENT_INFO },
    authMethods: advertisedAuthMethods(app.config.acp.surface, params.clientCapabilities),
  };
};
