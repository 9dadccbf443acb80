/** Builds the system prompt of a session's cwd (reading its AGENTS.md through the FileSystem port). */
import { resolvePath } from "../paths/path.js";
import { buildSystemPrompt } from "../session/system-prompt.js";
import type { Toolbox } from "../tools/toolbox.js";
import type { AgentState } from "./agent-state.js";

/** The system prompt of a session in `cwd` with `toolbox`'s tools. */
export const systemPromptFor = async (state: AgentState, cwd: string, toolbox: Toolbox): Promise<string> => {
  const agentsMd = (await state.deps.fs.readText(resolvePath(cwd, "AGENTS.md"))).unwrapOr(undefined);
  return buildSystemPrompt({
    cwd,
    date: new Date(state.deps.clock.now()).toISOString().slice(0, 10),
    os: state.settings.os,
    tools: toolbox.tools,
    skills: state.deps.skills.list(),
    agentsMd,
  });
};
