/**
 * `session/delete` ("full" surface, sessions kept): removes a stored session (closing it first when it
 * is open here). The request names only the id; its cwd is the one this process saw it in (created,
 * loaded, resumed or listed). Deleting a session already gone, one this process never saw, or an id
 * not of mm's form (no path is built from it) succeeds with nothing deleted, as ACP asks (acp-tck
 * ACP-DELETE-002).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { isSessionId } from "@mm/core";
import type { AppState } from "../state/app-state.js";
import { invalidSessionParams, storeErrorText } from "./errors.js";
import { shownId } from "./shown-id.js";

export const deleteSession = async (app: AppState, params: acp.DeleteSessionRequest): Promise<acp.DeleteSessionResponse> => {
  const { sessionId } = params;
  if (!isSessionId(sessionId)) {
    app.info(`session ${shownId(sessionId)}: delete of an id not of mm's form: nothing to delete`);
    return {};
  }
  const cwd = app.agent.session(sessionId)?.cwd ?? app.knownCwds.get(sessionId);
  if (cwd === undefined) {
    app.info(`session ${sessionId}: delete of a session this process does not know: nothing to delete`);
    return {};
  }
  const removed = await app.agent.removeSession(cwd, sessionId);
  if (removed.isErr()) throw invalidSessionParams(sessionId, storeErrorText(removed.error));
  app.info(`session ${sessionId}: deleted`);
  return {};
};
