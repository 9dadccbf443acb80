/**
 * A live session's own tools (e.g. its MCP servers', which may arrive or go after it started): replacing
 * them rebuilds its toolbox and its system prompt from the next model step on; a running turn keeps
 * the tools it started with.
 */
import { withSystemPrompt } from "../history/message.js";
import type { Tool } from "../tools/tool.js";
import type { AgentState, LiveSession } from "./agent-state.js";
import { toolboxFor } from "./start-session.js";
import { systemPromptFor } from "./system-prompt-for.js";

export const replaceSessionTools = async (state: AgentState, live: LiveSession, tools: readonly Tool[]): Promise<void> => {
  const toolbox = toolboxFor(state, { tools });
  const prompt = await systemPromptFor(state, live.session.cwd, toolbox, live.roots);
  live.toolbox = toolbox;
  live.session = { ...live.session, history: withSystemPrompt(live.session.history, prompt) };
};
