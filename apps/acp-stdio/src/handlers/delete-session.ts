/**
 * `session/delete` ("full" surface, sessions kept): removes a stored session (closing it first when it
 * is open here). The request names only the id; its cwd is the one this process saw it in (created,
 * loaded, resumed or listed). Deleting a session already gone, or one this process never saw,
 * succeeds with nothing deleted, as ACP asks (acp-tck ACP-DELETE-002).
 */
import type * as acp from "@agentclientprotocol/sdk";
import { isSessionId } from "@mm/core";
import type { AppState } from "../app-state.js";
import { invalidSessionParams, storeErrorText } from "./errors.js";

export const deleteSession = async (app: AppState, params: acp.DeleteSessionRequest): Promise<acp.DeleteSessionResponse> => {
  const { sessionId } = params;
  if (!isSessionId(sessionId)) throw invalidSessionParams(sessionId, "not a session id (expected YYYYMMDD-HHMMSS-xxxxxxxx)");
  const cwd = app.agent.session(sessionId)?.cwd ?? app.knownCwds.get(sessionId);
  if (cwd === undefined) {
    app.log(`session ${sessionId}: delete of a session this process does not know: nothing to delete`);
    return {};
  }
  const removed = await app.agent.removeSession(cwd, sessionId);
  if (removed.isErr()) throw invalidSessionParams(sessionId, storeErrorText(removed.error));
  app.log(`session ${sessionId}: deleted`);
  return {};
};
