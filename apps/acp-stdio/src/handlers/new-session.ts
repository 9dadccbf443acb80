/** `session/new`: a fresh session; its slash commands follow once the response is out. */
import * as acp from "@agentclientprotocol/sdk";
import { availableCommands, startSession } from "@mm/core";
import type { AppState } from "../app-state.js";
import { commandsUpdate } from "../translate/commands.js";

type JsonRpcId = string | number | null;

export const sendCommands = (app: AppState, sessionId: string): void =>
  app.notify(sessionId, commandsUpdate(availableCommands(app.agent.deps.skills.list())));

export const newSession = async (app: AppState, params: acp.NewSessionRequest, requestId: JsonRpcId): Promise<acp.NewSessionResponse> => {
  if (!params.cwd.startsWith("/")) throw acp.RequestError.invalidParams({ cwd: params.cwd, error: "cwd must be an absolute path" });
  const session = await startSession(app.agent, params.cwd);
  app.log(`session ${session.id} created in ${params.cwd} (${params.mcpServers.length} MCP server(s) ignored)`);
  app.afterResponse(requestId, () => sendCommands(app, session.id));
  return { sessionId: session.id };
};
