/** Binds each ACP method to its handler; a method without one answers `method not found`. */
import type * as acp from "@agentclientprotocol/sdk";
import type { AppState } from "./app-state.js";
import { cancel } from "./handlers/cancel.js";
import { initialize } from "./handlers/initialize.js";
import { loadSession } from "./handlers/load-session.js";
import { newSession } from "./handlers/new-session.js";
import { prompt } from "./handlers/prompt.js";

export const registerHandlers = (agentApp: acp.AgentApp, app: AppState): acp.AgentApp => {
  agentApp
    .onRequest("initialize", ({ params }) => initialize(app, params))
    .onRequest("authenticate", () => ({}))
    .onRequest("session/new", ({ params, requestId }) => newSession(app, params, requestId))
    .onRequest("session/prompt", ({ params }) => prompt(app, params))
    .onNotification("session/cancel", ({ params }) => cancel(app, params));
  if (app.config.sessions.enabled) agentApp.onRequest("session/load", ({ params }) => loadSession(app, params));
  return agentApp;
};
