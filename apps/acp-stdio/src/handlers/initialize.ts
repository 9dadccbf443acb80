/**
 * `initialize`: logs the client, remembers its capabilities, answers the spec's fixed values (the
 * "full" surface adds its auth method).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { AGENT_INFO } from "../agent-info.js";
import { advertisedAuthMethods } from "../auth-methods.js";
import { fullSurface, type AppState } from "../app-state.js";

/** The spec's (`loadSession` with sessions kept); the "full" surface adds what it implements. */
const agentCapabilities = (app: AppState): acp.AgentCapabilities => {
  const kept = app.config.sessions.enabled;
  const images = app.config.model.vision ? { promptCapabilities: { image: true } } : {};
  if (!fullSurface(app)) return { ...(kept ? { loadSession: true } : {}), ...images };
  return {
    ...(kept ? { loadSession: true } : {}),
    ...images,
    sessionCapabilities: { close: {}, ...(kept ? { list: {}, resume: {}, delete: {} } : {}) },
    mcpCapabilities: { http: true, sse: true },
    auth: { logout: {} },
  };
};

export const initialize = (app: AppState, params: acp.InitializeRequest): acp.InitializeResponse => {
  const client = params.clientInfo ? `${params.clientInfo.name} ${params.clientInfo.version ?? ""}`.trim() : "unknown client";
  app.log(`initialize: ${client}, protocol version ${params.protocolVersion}`);
  app.peer.capabilities = params.clientCapabilities;
  if (fullSurface(app)) app.models.warm();
  return {
    protocolVersion: 1,
    agentCapabilities: agentCapabilities(app),
    agentInfo: { ...AGENT_INFO },
    authMethods: advertisedAuthMethods(app.config.acp.surface, params.clientCapabilities),
  };
};
