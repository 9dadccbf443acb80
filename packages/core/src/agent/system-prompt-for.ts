/** Builds the system prompt of a session's cwd (reading its AGENTS.md through the FileSystem port). */
import { resolvePath } from "../paths/path.js";
import { buildSystemPrompt } from "../session/system-prompt.js";
import type { Agent } from "./agent.js";

export const systemPromptFor = async (agent: Agent, cwd: string): Promise<string> => {
  const agentsMd = (await agent.deps.fs.readText(resolvePath(cwd, "AGENTS.md"))).unwrapOr(undefined);
  return buildSystemPrompt({
    cwd,
    date: new Date(agent.deps.clock.now()).toISOString().slice(0, 10),
    os: agent.settings.os,
    skills: agent.deps.skills.list(),
    agentsMd,
  });
};
