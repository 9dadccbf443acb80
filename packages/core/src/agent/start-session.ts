/** `session/new`: a fresh session with the current system prompt, saved at once when sessions are on. */
import { systemMessage } from "../history/message.js";
import { newSessionId } from "../session/session-id.js";
import { createSession, type Session } from "../session/session.js";
import type { Agent } from "./agent.js";
import { persistSession } from "./persist.js";
import { systemPromptFor } from "./system-prompt-for.js";

export const startSession = async (agent: Agent, cwd: string): Promise<Session> => {
  const id = newSessionId(agent.deps.clock, agent.deps.random);
  const session = createSession(
    id,
    cwd,
    [systemMessage(await systemPromptFor(agent, cwd))],
    agent.deps.clock.now(),
    agent.deps.sessionFs?.(id),
  );
  agent.sessions.set(id, session);
  await persistSession(agent, session);
  return session;
};
