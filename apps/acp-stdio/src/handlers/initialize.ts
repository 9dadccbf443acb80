/**
 * `initialize`: logs the client, remembers its capabilities, answers the spec's fixed values for this
 * configuration (the "full" surface adds what it implements, and its auth method).
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { MmConfig } from "../config/index.js";
import { AGENT_INFO } from "../editor/agent-info.js";
import { fullSurface, type AppState } from "../state/app-state.js";
import { advertisedAuthMethods } from "../editor/auth-methods.js";

/** The spec's (`loadSession` with sessions kept); the "full" surface adds what it implements. */
const agentCapabilities = (config: MmConfig): acp.AgentCapabilities => {
  const kept = config.sessions.enabled;
  const images = config.model.vision ? { promptCapabilities: { image: true } } : {};
  if (config.acp.surface !== "full") return { ...(kept ? { loadSession: true } : {}), ...images };
  return {
    ...(kept ? { loadSession: true } : {}),
    ...images,
    sessionCapabilities: { close: {}, additionalDirectories: {}, ...(kept ? { list: {}, resume: {}, delete: {} } : {}) },
    mcpCapabilities: { http: true, sse: true },
    auth: { logout: {} },
  };
};

export const initializeAnswer = (config: MmConfig, params: acp.InitializeRequest): acp.InitializeResponse => ({
  protocolVersion: 1,
  agentCapabilities: agentCapabilities(config),
  agentInfo: { ...AGENT_INFO },
  authMethods: advertisedAuthMethods(config.acp.surface, params.clientCapabilities),
});

export const initialize = (app: AppState, params: acp.InitializeRequest): acp.InitializeResponse => {
  const client = params.clientInfo ? `${params.clientInfo.name} ${params.clientInfo.version ?? ""}`.trim() : "unknown client";
  app.info(`initialize: ${client}, protocol version ${params.protocolVersion}`);
  app.peer.capabilities = params.clientCapabilities;
  if (fullSurface(app)) app.models.warm();
  return initializeAnswer(app.config, params);
};
