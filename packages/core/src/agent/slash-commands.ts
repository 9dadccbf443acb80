/** `/new` and `/compact` as a session sees them: history changes, the one-line chunk, the log line. */
import { compactHistory, compactionLine } from "../compaction/compact-history.js";
import { newCommandLine, runNewCommand } from "../commands/new-command.js";
import { newSessionId } from "../session/session-id.js";
import type { Session } from "../session/session.js";
import type { Emit } from "../turn/events.js";
import type { Agent } from "./agent.js";
import { persistSession, saveHistory } from "./persist.js";

export const newCommand = async (agent: Agent, session: Session, emit: Emit): Promise<void> => {
  const result = runNewCommand(session.history);
  if (agent.deps.store !== undefined && result.previous !== undefined) {
    const keptAs = newSessionId(agent.deps.clock, agent.deps.random);
    if (await saveHistory(agent, keptAs, session.cwd, session.createdAt, result.previous)) {
      agent.deps.log(`session ${session.id}: previous conversation kept as ${keptAs}`);
    }
  }
  session.history = result.history;
  session.lastInputTokens = undefined;
  await persistSession(agent, session);
  emit({ type: "notice", text: newCommandLine(result.forgotten) });
  agent.deps.log(`session ${session.id}: new session, ${result.forgotten} message(s) forgotten`);
};

export const compactCommand = async (agent: Agent, session: Session, emit: Emit, signal: AbortSignal): Promise<void> => {
  const result = await compactHistory(agent.deps, session.history, agent.settings.keepLastTurns, signal);
  if (result.kind === "compacted") {
    session.history = result.history;
    session.lastInputTokens = undefined;
  }
  await persistSession(agent, session);
  const line = compactionLine(result);
  emit({ type: "compaction", outcome: result.kind, line, summary: result.kind === "compacted" ? result.summary : undefined });
  agent.deps.log(`session ${session.id}: /compact — ${line}`);
};
