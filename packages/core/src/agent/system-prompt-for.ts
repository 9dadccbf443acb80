/**
 * Builds the system prompt of a session's cwd, reading the AGENTS.md files from its repository root
 * down to it (nearest last) through the ContextFiles port (the host's boundary: each file confined to
 * its own directory; a link out, a hidden path, a FIFO are refused). A refused read is named in the
 * log (once per distinct line) and the session goes on without that file.
 */
import { describeFsError } from "../ports/file-system.js";
import { contextFilesOn, directoriesDownTo } from "../ports/context-files.js";
import { resolvePath } from "../paths/path.js";
import { type AgentsMd, buildSystemPrompt } from "../session/system-prompt.js";
import type { Toolbox } from "../tools/toolbox.js";
import type { AgentState } from "./agent-state.js";

/** The AGENTS.md files that apply to `cwd`, root first, each read through the port. */
const agentsMdFiles = async (state: AgentState, cwd: string): Promise<readonly AgentsMd[]> => {
  const files = state.deps.contextFiles ?? contextFilesOn(state.deps.fs);
  const root = (await files.repositoryRoot?.(cwd)) ?? cwd;
  const dirs = directoriesDownTo(root, cwd);
  const reads = await Promise.all(dirs.map((dir) => files.read(dir, "AGENTS.md", cwd)));
  const found: AgentsMd[] = [];
  reads.forEach((read, i) => {
    if (read.isOk()) found.push({ path: resolvePath(dirs[i] ?? cwd, "AGENTS.md"), text: read.value });
    else if (read.error.kind !== "not-found") state.warn(`AGENTS.md not read, the session goes on without it: ${describeFsError(read.error)}`);
  });
  return found;
};

/** The system prompt of a session in `cwd` (and its additional directories, `roots`) with `toolbox`'s tools. */
export const systemPromptFor = async (state: AgentState, cwd: string, toolbox: Toolbox, roots: readonly string[] = []): Promise<string> =>
  buildSystemPrompt({
    cwd,
    ...(roots.length > 0 ? { roots } : {}),
    date: new Date(state.deps.clock.now()).toISOString().slice(0, 10),
    os: state.settings.os,
    tools: toolbox.tools,
    skills: state.deps.skills.list(),
    agentsMd: await agentsMdFiles(state, cwd),
  });
