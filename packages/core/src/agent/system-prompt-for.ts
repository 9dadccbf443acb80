/**
 * Builds the system prompt of a session's cwd, reading its AGENTS.md through the ContextFiles port
 * (the host's boundary: a link out of the cwd, a hidden path, a FIFO are refused). A refused read is
 * named in the log (once per distinct line) and the session goes on without it.
 */
import { describeFsError } from "../ports/file-system.js";
import { contextFilesOn } from "../ports/context-files.js";
import { buildSystemPrompt } from "../session/system-prompt.js";
import type { Toolbox } from "../tools/toolbox.js";
import type { AgentState } from "./agent-state.js";

/** The system prompt of a session in `cwd` with `toolbox`'s tools. */
export const systemPromptFor = async (state: AgentState, cwd: string, toolbox: Toolbox): Promise<string> => {
  const files = state.deps.contextFiles ?? contextFilesOn(state.deps.fs);
  const read = await files.read(cwd, "AGENTS.md");
  if (read.isErr() && read.error.kind !== "not-found") state.warn(`AGENTS.md not read, the session goes on without it: ${describeFsError(read.error)}`);
  const agentsMd = read.unwrapOr(undefined);
  return buildSystemPrompt({
    cwd,
    date: new Date(state.deps.clock.now()).toISOString().slice(0, 10),
    os: state.settings.os,
    tools: toolbox.tools,
    skills: state.deps.skills.list(),
    agentsMd,
  });
};
