/**
 * Gives a session the MCP servers of its `session/new`, `load` or `resume` request ("full" surface):
 * their tools join the session; what is to be told before the response is out waits for it (an editor
 * drops updates for a session id it does not know yet).
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AppState } from "../state/app-state.js";
import { specsOf } from "./servers-per-session.js";
import { tellUser } from "../editor/tell-user.js";

/** Starts the servers and adds their tools; `released` must be called once the response is written. */
export const attachMcpServers = async (
  app: AppState,
  sessionId: string,
  cwd: string,
  servers: readonly acp.McpServer[],
): Promise<{ readonly released: () => void }> => {
  let answered = false;
  const waiting: string[] = [];
  const tell = (line: string): void => {
    if (!answered) return void waiting.push(line);
    tellUser(app, sessionId, app.secrets?.redact(line) ?? line, "warning");
  };
  const released = (): void => {
    answered = true;
    for (const line of waiting.splice(0)) tell(line);
  };
  if (servers.length === 0) return { released };
  const specs = specsOf(servers);
  // Their headers and environment values are secrets from now on: nothing a tool returns shows them.
  app.mcpSecrets?.(specs);
  const tools = await app.mcp.start(sessionId, specs, cwd, {
    toolsChanged: (now) => void app.agent.setSessionTools(sessionId, now),
    tell,
    info: (line) => app.info(`session ${sessionId}: ${line}`),
  });
  await app.agent.setSessionTools(sessionId, tools);
  return { released };
};
