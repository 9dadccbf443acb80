/**
 * `session/load`: replays the stored history and, as the replay's end state, how full the context is
 * (an estimate: the model has not seen it yet); then the commands, then answers `{}`.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { resolvePath } from "@mm/core";
import { fullSurface, type AppState } from "../state/app-state.js";
import { attachMcpServers } from "../mcp/attach-servers.js";
import { settingsReply, withoutStaleEffort } from "../session-settings/model-and-mode.js";
import { messageIds } from "../translate/message-ids.js";
import { replayUpdates } from "../translate/replay.js";
import { cwdProblem } from "./new-session.js";
import { additionalDirectories } from "./additional-directories.js";
import { invalidSessionParams, storeErrorText } from "./errors.js";
import { shownId } from "./shown-id.js";
import { sendFollowUp } from "./session-follow-up.js";

export const loadSession = async (app: AppState, params: acp.LoadSessionRequest): Promise<acp.LoadSessionResponse> => {
  const problem = await cwdProblem(app, params.cwd);
  if (problem !== undefined) throw invalidSessionParams(params.sessionId, problem);
  const roots = await additionalDirectories(app, params.cwd, params.additionalDirectories);
  const loaded = await app.agent.loadSession(params.cwd, params.sessionId, roots.length > 0 ? { roots } : {});
  if (loaded.isErr()) {
    const error = storeErrorText(loaded.error);
    app.warn(`session ${shownId(params.sessionId)}: load failed: ${error}`);
    throw invalidSessionParams(params.sessionId, error);
  }
  const { replay } = loaded.value;
  const session = await withoutStaleEffort(app, loaded.value.session);
  app.knownCwds.set(session.id, session.cwd);
  // Full surface: each replayed message carries its id, the tool calls their tool's name.
  const ids = fullSurface(app) ? messageIds() : undefined;
  for (const item of replay) {
    for (const update of replayUpdates(item, { toolNames: ids !== undefined })) app.notify(session.id, ids === undefined ? update : ids.stamp(update));
    ids?.end();
  }
  app.info(`session ${session.id} loaded from ${resolvePath(params.cwd, app.config.sessions.dir)}: ${replay.length} message(s) replayed`);
  const after = { unproven: loaded.value.unproven, usage: true, commands: true };
  if (!fullSurface(app)) {
    sendFollowUp(app, session, after);
    return {};
  }
  await app.mcp.close(session.id);
  const mcp = await attachMcpServers(app, session.id, session.cwd, params.mcpServers);
  const { reply, later } = await settingsReply(app, session);
  sendFollowUp(app, session, { ...after, later, mcp });
  return reply;
};
