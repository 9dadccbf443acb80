/**
 * `session/resume` ("full" surface, sessions kept): the stored session back, live, without a replay;
 * once answered, how full its context is, its commands and its title (`sendFollowUp`). A session already open in this
 * process is answered as it is (its running turn goes on).
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AppState } from "../state/app-state.js";
import { attachMcpServers } from "../mcp/attach-servers.js";
import { settingsReply, withoutStaleEffort } from "../session-settings/model-and-mode.js";
import { cwdProblem } from "./new-session.js";
import { additionalDirectories } from "./additional-directories.js";
import { invalidSessionParams, storeErrorText } from "./errors.js";
import type { JsonRpcId } from "../stdio/json-rpc-id.js";
import { shownId } from "./shown-id.js";
import { sendFollowUp } from "./session-follow-up.js";

export const resumeSession = async (app: AppState, params: acp.ResumeSessionRequest, requestId: JsonRpcId): Promise<acp.ResumeSessionResponse> => {
  const problem = await cwdProblem(app, params.cwd);
  if (problem !== undefined) throw invalidSessionParams(params.sessionId, problem);
  const roots = await additionalDirectories(app, params.cwd, params.additionalDirectories);
  const open = app.agent.session(params.sessionId);
  if (open !== undefined && open.cwd === params.cwd) {
    // The list given is the session's from now on (none: none), as for a session loaded.
    app.agent.setRoots(params.sessionId, roots);
    const { reply, later } = await settingsReply(app, open);
    app.afterResponse(requestId, () => sendFollowUp(app, open, { later }));
    return reply;
  }
  const loaded = await app.agent.loadSession(params.cwd, params.sessionId, roots.length > 0 ? { roots } : {});
  if (loaded.isErr()) {
    const error = storeErrorText(loaded.error);
    app.warn(`session ${shownId(params.sessionId)}: resume failed: ${error}`);
    throw invalidSessionParams(params.sessionId, error);
  }
  const session = await withoutStaleEffort(app, loaded.value.session);
  app.knownCwds.set(session.id, session.cwd);
  await app.mcp.close(session.id);
  const mcp = await attachMcpServers(app, session.id, session.cwd, params.mcpServers ?? []);
  const { reply, later } = await settingsReply(app, session);
  app.afterResponse(requestId, () => sendFollowUp(app, session, { unproven: loaded.value.unproven, usage: true, commands: true, later, mcp }));
  app.info(`session ${session.id} resumed (${session.history.length - 1} message(s), no replay)`);
  return reply;
};
