/**
 * `/new` and `/compact` as a session sees them: history changes, the one-line chunk, how full the
 * context now is, the log line.
 */
import { compactHistory, compactionLine } from "../compaction/compact-history.js";
import { newCommandLine, runNewCommand } from "../commands/new-command.js";
import { newSessionId } from "../session/session-id.js";
import type { Emit } from "../turn/events.js";
import { estimateTokens } from "../turn/token-estimate.js";
import type { AgentState, LiveSession } from "./agent-state.js";
import { persistSession, saveSession } from "./persist.js";

/** How full the context is after a command: the model's last report when still valid, else an estimate. */
const emitUsage = (state: AgentState, live: LiveSession, emit: Emit): void => {
  const { lastInputTokens, history } = live.session;
  emit({ type: "usage", used: lastInputTokens ?? estimateTokens(history), size: state.settings.contextWindow });
};

/** `/new`: keeps the conversation under a new id (with a store), resets the history, says so. */
export const newCommand = async (state: AgentState, live: LiveSession, emit: Emit): Promise<void> => {
  const { id } = live.session;
  const result = runNewCommand(live.session.history);
  if (state.deps.store !== undefined && result.previous !== undefined) {
    const keptAs = newSessionId(state.deps.clock, state.deps.random);
    if (await saveSession(state, { ...live.session, id: keptAs, history: result.previous })) state.log(`session ${id}: previous conversation kept as ${keptAs}`);
  }
  live.session = { ...live.session, history: result.history, lastInputTokens: undefined, title: undefined };
  await persistSession(state, live);
  emit({ type: "notice", text: newCommandLine(result.forgotten) });
  emitUsage(state, live, emit);
  state.log(`session ${id}: new session, ${result.forgotten} message(s) forgotten`);
};

/** `/compact`: compacts the history now (keeping the last turns), saves, says how it went. */
export const compactCommand = async (state: AgentState, live: LiveSession, emit: Emit, signal: AbortSignal): Promise<void> => {
  const result = await compactHistory(state.deps, live.session.history, state.settings.keepLastTurns, signal, live.session.model);
  if (result.kind === "compacted") live.session = { ...live.session, history: result.history, lastInputTokens: undefined };
  await persistSession(state, live);
  const line = compactionLine(result);
  emit({ type: "compaction", outcome: result.kind, line, summary: result.kind === "compacted" ? result.summary : undefined });
  emitUsage(state, live, emit);
  state.log(`session ${live.session.id}: /compact — ${line}`);
};
