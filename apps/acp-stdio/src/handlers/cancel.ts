/** `session/cancel`: stops the session's running turn and its queued ones; unknown ids are ignored. */
import type * as acp from "@agentclientprotocol/sdk";
import { cancelSession } from "@mm/core";
import type { AppState } from "../app-state.js";
import { shownId } from "../wire/shown-id.js";

export const cancel = (app: AppState, params: acp.CancelNotification): void => {
  const session = app.agent.sessions.get(params.sessionId);
  if (session === undefined) {
    app.log(`cancel for unknown session ${shownId(params.sessionId)} ignored`);
    return;
  }
  app.log(`session ${session.id}: cancel`);
  cancelSession(session);
};
