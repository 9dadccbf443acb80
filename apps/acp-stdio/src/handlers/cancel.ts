/** `session/cancel`: stops the session's running turn and its queued ones; unknown ids are ignored. */
import type * as acp from "@agentclientprotocol/sdk";
import type { AppState } from "../state/app-state.js";
import { shownId } from "./shown-id.js";

export const cancel = (app: AppState, params: acp.CancelNotification): void => {
  if (app.agent.session(params.sessionId) === undefined) {
    app.info(`cancel for unknown session ${shownId(params.sessionId)} ignored`);
    return;
  }
  app.info(`session ${params.sessionId}: cancel`);
  app.agent.cancel(params.sessionId);
};
