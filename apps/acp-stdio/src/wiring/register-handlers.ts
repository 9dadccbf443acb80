/**
 * Binds each ACP method to its handler; a method without one answers `method not found`. The spec
 * surface (docs/acp-surface.md) is the default; `acp.surface: "full"` adds today's stable methods.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { fullSurface, type AppState } from "../state/app-state.js";
import { cancel } from "../handlers/cancel.js";
import { closeSession } from "../handlers/close-session.js";
import { deleteSession } from "../handlers/delete-session.js";
import { initialize } from "../handlers/initialize.js";
import { listSessions } from "../handlers/list-sessions.js";
import { loadSession } from "../handlers/load-session.js";
import { newSession } from "../handlers/new-session.js";
import { prompt } from "../handlers/prompt.js";
import { resumeSession } from "../handlers/resume-session.js";
import { setConfigOption } from "../handlers/set-config-option.js";
import { setMode } from "../handlers/set-mode.js";
import { SET_MODEL_METHOD, setModel, setModelParams } from "../handlers/set-model.js";

export const registerHandlers = (agentApp: acp.AgentApp, app: AppState): acp.AgentApp => {
  agentApp
    .onRequest("initialize", ({ params }) => initialize(app, params))
    .onRequest("authenticate", () => ({}))
    .onRequest("session/new", ({ params, requestId }) => newSession(app, params, requestId))
    .onRequest("session/prompt", ({ params, requestId }) => prompt(app, params, requestId))
    .onNotification("session/cancel", ({ params }) => cancel(app, params));
  const kept = app.config.sessions.enabled;
  if (kept) agentApp.onRequest("session/load", ({ params }) => loadSession(app, params));
  if (!fullSurface(app)) return agentApp;
  agentApp
    .onRequest("session/close", ({ params }) => closeSession(app, params))
    .onRequest("session/set_config_option", ({ params }) => setConfigOption(app, params))
    .onRequest("session/set_mode", ({ params }) => setMode(app, params))
    // Unstable, not in the SDK's schema: the AI SDK's ACP provider switches models with it.
    .onRequest(SET_MODEL_METHOD, setModelParams, ({ params }) => setModel(app, params))
    .onRequest("logout", () => ({}));
  if (kept) {
    agentApp
      .onRequest("session/list", ({ params }) => listSessions(app, params))
      .onRequest("session/resume", ({ params, requestId }) => resumeSession(app, params, requestId))
      .onRequest("session/delete", ({ params }) => deleteSession(app, params));
  }
  return agentApp;
};
