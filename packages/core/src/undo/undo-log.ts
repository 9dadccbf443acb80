/**
 * The undo log against the history: which message starts the last turn, which recorded turn it is
 * (records the history has moved past are stale), and the session's budget of kept before-states.
 * Pure.
 */
import type { History } from "../history/message.js";
import type { UndoFile, UndoTurn } from "../ports/undo-store.js";

/** How much of a turn's prompt a record keeps to recognise it. */
const QUESTION_CHARS = 200;

/** The start of a prompt, as a record keeps it. */
export const questionKey = (text: string): string => text.slice(0, QUESTION_CHARS);

/** The index of the last turn's user message (not a compaction summary); undefined when there is no turn. */
export const lastTurnIndex = (history: History): number | undefined => {
  for (let i = history.length - 1; i > 0; i--) {
    const message = history[i];
    if (message?.role === "user" && message.summary !== true) return i;
  }
  return undefined;
};

const recordsTurnAt = (history: History, turn: UndoTurn): boolean => {
  const message = history[turn.at];
  return message?.role === "user" && message.summary !== true && questionKey(message.text) === turn.question;
};

/**
 * The records of `turns` carried into `after`, a rewrite of the history `before` (a compaction keeps
 * its last turns whole, the same messages): those whose prompt is still there, at its new place; the
 * others (summarised away, or all of them after `/new`) dropped.
 */
export const carriedOver = (turns: readonly UndoTurn[], before: History, after: History): UndoTurn[] =>
  turns.flatMap((turn) => {
    const at = recordsTurnAt(before, turn) ? after.indexOf(before[turn.at]!) : -1;
    return at > 0 ? [{ ...turn, at }] : [];
  });

/** The bytes of before-states `files` keep, each blob counted once. */
export const keptBytes = (files: readonly UndoFile[]): number => {
  const sizes = new Map<string, number>();
  for (const file of files) if (file.before.kind === "blob") sizes.set(file.before.hash, file.before.size);
  return [...sizes.values()].reduce((sum, size) => sum + size, 0);
};

/** The turns left once the oldest are dropped so that they and `extra` bytes (of `current`) fit in `limit`. */
export const withinBudget = (earlier: readonly UndoTurn[], current: readonly UndoFile[], extra: number, limit: number): readonly UndoTurn[] | undefined => {
  for (let drop = 0; drop <= earlier.length; drop++) {
    const kept = earlier.slice(drop);
    if (keptBytes([...kept.flatMap((t) => t.files), ...current]) + extra <= limit) return kept;
  }
  return undefined;
};
