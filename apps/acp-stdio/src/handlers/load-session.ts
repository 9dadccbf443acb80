/** `session/load`: replays the stored history, then the commands, then answers `{}`. */
import type * as acp from "@agentclientprotocol/sdk";
import { describeStoreError, loadSession as loadStored } from "@mm/core";
import type { AppState } from "../app-state.js";
import { replayUpdate } from "../translate/replay.js";
import { invalidSessionParams } from "../wire/errors.js";
import { sendCommands } from "./new-session.js";

export const loadSession = async (app: AppState, params: acp.LoadSessionRequest): Promise<acp.LoadSessionResponse> => {
  const loaded = await loadStored(app.agent, params.cwd, params.sessionId);
  if (loaded.isErr()) {
    const error = loaded.error.kind === "disabled" ? "sessions are not enabled" : describeStoreError(loaded.error);
    app.log(`session ${String(params.sessionId)}: load failed: ${error}`);
    throw invalidSessionParams(params.sessionId, error);
  }
  const { session, replay } = loaded.value;
  for (const item of replay) app.notify(session.id, replayUpdate(item));
  sendCommands(app, session.id);
  app.log(`session ${session.id} loaded from ${app.config.sessions.dir}: ${replay.length} message(s) replayed`);
  return {};
};
