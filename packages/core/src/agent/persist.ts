/**
 * Keeping sessions on disk through the store, when there is one: holding a session before changing
 * it, saving it as a turn goes and when it ends, and telling the user, once per turn, when it could not
 * be saved. A failed save is never fatal: the history stays in memory and the next save writes it all.
 */
import type { History } from "../history/message.js";
import { describeStoreError, type StoreError, type StoredSession } from "../ports/session-store.js";
import type { Session } from "../session/session.js";
import type { Emit } from "../turn/events.js";
import type { AgentState, LiveSession } from "./agent-state.js";

/** The session as the store keeps it (with `history` in place of its own), written now. */
const storedOf = (session: Session, history: History, updatedAt: number): StoredSession => ({
  id: session.id,
  cwd: session.cwd,
  createdAt: session.createdAt,
  updatedAt,
  history,
  ...(session.title !== undefined ? { title: session.title } : {}),
  ...(session.model !== undefined ? { model: session.model } : {}),
  ...(session.mode !== "ask" ? { mode: session.mode } : {}),
  ...(session.effort !== undefined ? { effort: session.effort } : {}),
  ...(session.cost !== undefined ? { cost: session.cost } : {}),
});

/** Saves `session` (under its own id) with `history`; the store's error when it could not. */
export const saveHistory = async (state: AgentState, session: Session, history: History = session.history): Promise<StoreError | undefined> => {
  const store = state.deps.store;
  if (store === undefined) return undefined;
  const saved = await store.save(storedOf(session, history, state.deps.clock.now()));
  return saved.isErr() ? saved.error : undefined;
};

/**
 * Once a turn has been saved, has the store make its document whole (the journal folded in), without
 * the answer waiting: the store runs it before its next operation on that session, so before the next
 * prompt's save. Failures are logged; the next save writes everything still needed.
 */
export const foldSession = (state: AgentState, live: LiveSession): void => {
  const fold = state.deps.store?.fold;
  if (fold === undefined || live.saveProblem !== undefined || state.sessions.get(live.session.id) !== live) return;
  const { id, cwd } = live.session;
  void fold(cwd, id).then((folded) => {
    if (folded.isErr()) state.log(`session ${id}: the document was not folded: ${describeStoreError(folded.error)}`);
  });
};

/**
 * Saves the live session, or `history` (the turn's so far) in its place, unless a load has replaced it
 * since (the loaded one is the truth). Remembers whether the session is on disk; logs each new problem.
 */
export const persistSession = async (state: AgentState, live: LiveSession, history: History = live.session.history): Promise<void> => {
  if (state.deps.store === undefined || state.sessions.get(live.session.id) !== live) return;
  const { id } = live.session;
  const error = await saveHistory(state, live.session, history);
  const problem = error === undefined ? undefined : describeStoreError(error);
  if (problem !== undefined && problem !== live.saveProblem) state.problem(`session ${id}: could not save: ${problem}`);
  if (problem === undefined && live.saveProblem !== undefined) state.log(`session ${id}: saved again`);
  live.saveProblem = problem;
};

/** One line at the end of a prompt whose session is not on disk (the editor would otherwise show a normal end). */
export const tellUnsaved = (live: LiveSession, emit: Emit): void => {
  if (live.saveProblem !== undefined) emit({ type: "notice", text: `\n[session not saved: ${live.saveProblem}]\n`, severity: "error" });
};

/**
 * Makes sure this process may change the session before a prompt runs: the reason it may not (another
 * process holds it, or changed it on disk), else undefined. Other problems (a read-only disk) do not
 * stop the prompt: its saves will fail and say so.
 */
export const holdSession = async (state: AgentState, live: LiveSession): Promise<string | undefined> => {
  const store = state.deps.store;
  if (store === undefined) return undefined;
  const held = await store.hold(live.session.cwd, live.session.id);
  if (held.isOk()) return undefined;
  const reason = describeStoreError(held.error);
  if (held.error.kind === "busy" || held.error.kind === "conflict") {
    state.problem(`session ${live.session.id}: prompt refused: ${reason}`);
    return reason;
  }
  return undefined;
};
