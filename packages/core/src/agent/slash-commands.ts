/**
 * `/new` and `/compact` as a session sees them: history changes, the one-line chunk, how full the
 * context now is, a line when the session could not be saved, the log line.
 */
import { compactHistory, compactionLine } from "../compaction/compact-history.js";
import { newCommandLine, runNewCommand } from "../commands/new-command.js";
import type { History } from "../history/message.js";
import { describeStoreError } from "../ports/session-store.js";
import { newSessionId } from "../session/session-id.js";
import type { Emit } from "../turn/events.js";
import { stepCost } from "../turn/step-cost.js";
import { estimateTokens } from "../history/token-estimate.js";
import type { AgentState, LiveSession } from "./agent-state.js";
import { persistSession, saveHistory, tellUnsaved } from "./persist.js";

/** How full the context is after a command: the model's last report when still valid, else an estimate. */
export const emitUsage = (state: AgentState, live: LiveSession, emit: Emit): void => {
  const { lastInputTokens, history } = live.session;
  const { cost } = live.session;
  emit({ type: "usage", used: lastInputTokens ?? estimateTokens(history), size: state.settings.contextWindow, ...(cost !== undefined ? { cost } : {}) });
};

/**
 * Keeps the conversation so far under a new id (then lets other processes have that session); the
 * reason it could not, if so.
 */
export const keepPrevious = async (state: AgentState, live: LiveSession, previous: History): Promise<string | undefined> => {
  const store = state.deps.store;
  if (store === undefined) return undefined;
  const { id, cwd } = live.session;
  const keptAs = newSessionId(state.deps.clock, state.deps.random);
  const error = await saveHistory(state, { ...live.session, id: keptAs }, previous);
  await store.release(cwd, keptAs);
  if (error !== undefined) return describeStoreError(error);
  state.log(`session ${id}: previous conversation kept as ${keptAs}`);
  return undefined;
};

/**
 * `/new`: keeps the conversation under a new id (with a store), resets the history, says so. When the
 * conversation could not be kept, nothing is reset: the line says why, and the history stays.
 */
export const newCommand = async (state: AgentState, live: LiveSession, emit: Emit): Promise<void> => {
  const { id, history } = live.session;
  const result = runNewCommand(history);
  const notKept = result.previous === undefined ? undefined : await keepPrevious(state, live, result.previous);
  if (notKept !== undefined) {
    emit({ type: "notice", text: `[new: failed, history kept: the conversation so far could not be saved: ${notKept}]` });
    state.problem(`session ${id}: /new failed, history kept: ${notKept}`);
    return;
  }
  live.session = { ...live.session, history: result.history, lastInputTokens: undefined, title: undefined };
  await persistSession(state, live);
  emit({ type: "notice", text: newCommandLine(result.forgotten) });
  emitUsage(state, live, emit);
  tellUnsaved(live, emit);
  state.log(`session ${id}: new session, ${result.forgotten} message(s) forgotten`);
};

/** `/compact`: compacts the history now (keeping the last turns), saves, says how it went. */
export const compactCommand = async (state: AgentState, live: LiveSession, emit: Emit, signal: AbortSignal): Promise<void> => {
  const result = await compactHistory(state.deps, live.session.history, state.settings.keepLastTurns, signal, live.session.model, (usage) => {
    const spent = stepCost(usage, state.settings.pricing, live.session.model);
    if (spent !== undefined) live.session = { ...live.session, cost: (live.session.cost ?? 0) + spent };
  });
  if (result.kind === "compacted") live.session = { ...live.session, history: result.history, lastInputTokens: undefined };
  await persistSession(state, live);
  const line = compactionLine(result);
  emit({ type: "compaction", outcome: result.kind, line, summary: result.kind === "compacted" ? result.summary : undefined });
  emitUsage(state, live, emit);
  tellUnsaved(live, emit);
  state.log(`session ${live.session.id}: /compact — ${line}`);
};
