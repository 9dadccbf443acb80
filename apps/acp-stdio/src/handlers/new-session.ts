/** `session/new`: a fresh session; its slash commands follow once the response is out. */
import * as acp from "@agentclientprotocol/sdk";
import { fullSurface, type AppState } from "../state/app-state.js";
import { attachMcpServers } from "../mcp/attach-servers.js";
import { settingsReply } from "../session-settings/model-and-mode.js";
import { additionalDirectories } from "./additional-directories.js";
import type { JsonRpcId } from "../stdio/json-rpc-id.js";
import { sendFollowUp } from "./session-follow-up.js";

/** Why `cwd` cannot be a session's: not absolute, or (as the app's port says) not an existing directory. */
export const cwdProblem = async (app: AppState, cwd: string): Promise<string | undefined> =>
  cwd.startsWith("/") ? await app.cwdProblem?.(cwd) : "cwd must be an absolute path";

const checkCwd = async (app: AppState, cwd: string): Promise<void> => {
  const problem = await cwdProblem(app, cwd);
  if (problem !== undefined) throw acp.RequestError.invalidParams({ cwd, error: problem });
};

export const newSession = async (app: AppState, params: acp.NewSessionRequest, requestId: JsonRpcId): Promise<acp.NewSessionResponse> => {
  await checkCwd(app, params.cwd);
  const roots = await additionalDirectories(app, params.cwd, params.additionalDirectories);
  const session = await app.agent.startSession(params.cwd, roots.length > 0 ? { roots } : {});
  if (roots.length > 0) app.info(`session ${session.id}: additional directories ${roots.join(", ")}`);
  app.knownCwds.set(session.id, session.cwd);
  if (!fullSurface(app)) {
    app.info(`session ${session.id} created in ${params.cwd} (${params.mcpServers.length} MCP server(s) ignored)`);
    app.afterResponse(requestId, () => sendFollowUp(app, session, { commands: true }));
    return { sessionId: session.id };
  }
  app.info(`session ${session.id} created in ${params.cwd} (${params.mcpServers.length} MCP server(s))`);
  const mcp = await attachMcpServers(app, session.id, session.cwd, params.mcpServers);
  const { reply, later } = await settingsReply(app, session);
  app.afterResponse(requestId, () => sendFollowUp(app, session, { commands: true, later, mcp }));
  return { sessionId: session.id, ...reply };
};
