/** `session/new`: a fresh session with the current system prompt, saved at once when sessions are on. */
import { systemMessage } from "../history/message.js";
import { newSessionId } from "../session/session-id.js";
import { sessionOf, type Session } from "../session/session.js";
import type { Tool } from "../tools/tool.js";
import { toolboxOf, type Toolbox } from "../tools/toolbox.js";
import type { AgentState, LiveSession } from "./agent-state.js";
import { persistSession } from "./persist.js";
import { systemPromptFor } from "./system-prompt-for.js";

/** What a new or loaded session may add to the agent's own. */
export type SessionOptions = {
  /** Tools of this session only (e.g. an editor's MCP servers), after the agent's; a same-named one replaces the agent's. */
  readonly tools?: readonly Tool[];
  /** The session's additional directories (ACP `additionalDirectories`): absolute, existing; for this process only. */
  readonly roots?: readonly string[];
};

/** The agent's tools plus the session's own, those offered now (e.g. `ask_user` only with an editor that shows forms). */
export const toolboxFor = (state: AgentState, options: SessionOptions): Toolbox =>
  toolboxOf([...state.tools, ...(options.tools ?? [])].filter((tool) => tool.offered()));

/** The live entry of a session value, with its tools and file access. */
export const liveSessionOf = (state: AgentState, session: Session, toolbox: Toolbox, roots: readonly string[] = []): LiveSession => {
  // Its boundary follows the roots a later session/resume gives.
  const made: { live?: LiveSession } = {};
  const fs = state.deps.sessionFs?.({ id: session.id, cwd: session.cwd, roots: () => made.live?.roots ?? roots });
  made.live = { session, toolbox, roots, fs, inFlight: new Set(), saveProblem: undefined };
  return made.live;
};

/** Creates and registers a session in `cwd`, saved at once when there is a store. */
export const startSession = async (state: AgentState, cwd: string, options: SessionOptions = {}): Promise<LiveSession> => {
  const id = newSessionId(state.deps.clock, state.deps.random);
  const toolbox = toolboxFor(state, options);
  const history = [systemMessage(await systemPromptFor(state, cwd, toolbox, options.roots))] as const;
  const live = liveSessionOf(state, sessionOf(id, cwd, history, state.deps.clock.now()), toolbox, options.roots);
  state.sessions.set(id, live);
  await persistSession(state, live);
  return live;
};
