/**
 * The conversation before an `/undo`, kept as a session of its own (as `/new` keeps one) so nothing
 * the user had is lost, but listed so a user can tell it apart and never twice:
 *
 * - it is titled after the session and the turn taken back (`Fix the login bug (before /undo of
 *   "rename the helper")`), not the session's own title, which the live session keeps;
 * - a conversation already held by the copy this session kept at its previous `/undo` (the same
 *   messages, or the first of them: several `/undo` in a row only take more off the end) is not kept
 *   again. Four `/undo` in a row thus leave the session and one kept copy, not five identical rows;
 *   a turn sent between two `/undo` makes a conversation of its own, kept and named for its turn.
 */
import type { History } from "../history/message.js";
import { describeStoreError } from "../ports/session-store.js";
import { newSessionId } from "../session/session-id.js";
import { titleOf, titleOfHistory } from "../session/title.js";
import { lastTurnIndex } from "../undo/undo-log.js";
import type { AgentState, LiveSession } from "./agent-state.js";
import { saveHistory } from "./persist.js";

/** What a session kept at its last `/undo`: the kept session's id and its messages. */
const lastKept = new WeakMap<LiveSession, { readonly id: string; readonly history: History }>();

const BASE_CHARS = 40;
const UNDONE_CHARS = 30;

/** `text` on one line, cut to `max` characters with `…`. */
const short = (text: string, max: number): string => {
  const chars = [...text];
  return chars.length <= max
    ? text
    : `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
};

/** The title of the conversation kept before an `/undo` that takes back its last turn. */
export const titleBeforeUndo = (base: string | undefined, previous: History): string => {
  const at = lastTurnIndex(previous);
  const question = at === undefined ? undefined : previous[at];
  const undone = question?.role === "user" ? titleOf(question.text) : undefined;
  // The turn that names the session needs no second mention.
  const what = undone === undefined || undone === base ? "before /undo" : `before /undo of "${short(undone, UNDONE_CHARS)}"`;
  return base === undefined ? `(${what})` : `${short(base, BASE_CHARS)} (${what})`;
};

/** Whether `history`'s messages are all in `kept`, in order, from its start. */
const heldBy = (kept: History, history: History): boolean => {
  if (history.length > kept.length) return false;
  // The system prompt (index 0) is rebuilt at every load: only the conversation is compared.
  return history.every((message, i) => i === 0 || JSON.stringify(message) === JSON.stringify(kept[i]));
};

/**
 * Keeps `previous`, the conversation before an `/undo`, under a new id (then lets other processes
 * have that session), unless the copy kept at this session's last `/undo` already holds it. The
 * reason it could not, if so.
 */
export const keepBeforeUndo = async (state: AgentState, live: LiveSession, previous: History): Promise<string | undefined> => {
  const store = state.deps.store;
  if (store === undefined) return undefined;
  const { id, cwd } = live.session;
  const earlier = lastKept.get(live);
  if (earlier !== undefined && heldBy(earlier.history, previous)) {
    state.log(`session ${id}: the conversation before this /undo is already kept as ${earlier.id}`);
    return undefined;
  }
  const keptAs = newSessionId(state.deps.clock, state.deps.random);
  const title = titleBeforeUndo(live.session.title ?? titleOfHistory(previous), previous);
  const error = await saveHistory(state, { ...live.session, id: keptAs, title }, previous);
  await store.release(cwd, keptAs);
  if (error !== undefined) return describeStoreError(error);
  lastKept.set(live, { id: keptAs, history: previous });
  state.log(`session ${id}: previous conversation kept as ${keptAs} ("${title}")`);
  return undefined;
};
