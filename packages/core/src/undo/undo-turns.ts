/**
 * `/undo N`: the last N turns taken back as N `/undo` in a row would, checked first as a whole. The
 * turns to take back (latest first, with their records), and the refusal a turn's files would give
 * once the later turns are put back: each turn is planned against what the files would hold by then
 * (the current files, with the later turns' restores applied), so a file changed between two turns
 * (by the user, by another session) is named as one `/undo` after the other would name it. Pure.
 */
import type { History } from "../history/message.js";
import type { UndoLog, UndoTurn } from "../ports/undo-store.js";
import { planUndo, type CurrentState, type NamedFile, type UndoPlan } from "./plan-undo.js";
import { questionKey } from "./undo-log.js";

/** One turn `/undo N` takes back: where its prompt is, what it asked, its record (none: no file change seen). */
export type TurnBack = { readonly at: number; readonly question: string; readonly turn: UndoTurn | undefined };

/** The indexes of the history's turns (user messages that are not a compaction summary), oldest first. */
export const turnIndexes = (history: History): readonly number[] =>
  history.flatMap((message, i) => (i > 0 && message.role === "user" && message.summary !== true ? [i] : []));

const recordsTurnAt = (history: History, turn: UndoTurn): boolean => {
  const message = history[turn.at];
  return message?.role === "user" && message.summary !== true && questionKey(message.text) === turn.question;
};

/**
 * The last `count` turns, latest first, each with its record; the records of the turns before them;
 * every record not stale (one whose prompt is still at its place). Undefined when the history has fewer turns than `count`.
 */
export const lastTurnsOf = (
  log: UndoLog,
  history: History,
  count: number,
): { readonly back: readonly TurnBack[]; readonly earlier: readonly UndoTurn[]; readonly valid: readonly UndoTurn[] } | undefined => {
  const indexes = turnIndexes(history);
  if (count < 1 || indexes.length < count) return undefined;
  const taken = indexes.slice(-count).reverse();
  const valid = log.turns.filter((turn) => recordsTurnAt(history, turn));
  const back = taken.map((at) => {
    const message = history[at];
    return { at, question: message?.role === "user" ? message.text : "", turn: valid.find((turn) => turn.at === at) };
  });
  const first = taken[taken.length - 1]!;
  return { back, earlier: valid.filter((turn) => turn.at < first), valid };
};

/** A turn's files would refuse the undo: which turn (1 the last, 2 the one before…) and the files. */
export type TurnConflict = { readonly nth: number; readonly question: string; readonly conflicts: readonly NamedFile[] };

/**
 * Plans each of `back` (latest first) against what its files would hold once the turns after it are
 * put back, starting from `now` (every file any of them recorded, as it is now). The first turn that
 * would refuse, if any.
 */
export const firstConflict = (back: readonly TurnBack[], now: ReadonlyMap<string, CurrentState>): TurnConflict | undefined => {
  const state = new Map(now);
  for (const [i, { turn, question }] of back.entries()) {
    const files = turn?.files ?? [];
    const plan: UndoPlan = planUndo(
      files,
      files.map((file) => state.get(file.path) ?? { kind: "unknown", reason: "not read" }),
    );
    if (plan.conflicts.length > 0) return { nth: i + 1, question, conflicts: plan.conflicts };
    for (const action of plan.actions) state.set(action.path, action.to);
  }
  return undefined;
};

const ordinal = (n: number): string => (n === 1 ? "last" : n === 2 ? "2nd to last" : n === 3 ? "3rd to last" : `${n}th to last`);

const QUESTION_CHARS = 40;

/** A turn named for the user: which one back, and the start of its prompt. */
export const turnName = (nth: number, question: string): string => {
  const line = question.replace(/\s+/g, " ").trim();
  const chars = [...line];
  const shown =
    chars.length <= QUESTION_CHARS
      ? line
      : `${chars
          .slice(0, QUESTION_CHARS - 1)
          .join("")
          .trimEnd()}…`;
  return `the ${ordinal(nth)} turn ("${shown}")`;
};

const listed = (files: readonly NamedFile[]): string => files.map((f) => `\n- ${f.path}: ${f.reason}`).join("");

/** The chunk of an `/undo N` refused because files changed since one of the turns (`count` > 1). */
export const turnsConflictLine = (conflict: TurnConflict, count: number): string =>
  `↩ nothing undone: ${conflict.conflicts.length} file(s) are not as ${turnName(conflict.nth, conflict.question)} left them:${listed(conflict.conflicts)}\n` +
  `Send /undo ${count} force to restore them anyway (what they hold now is lost).`;

/**
 * The chunk of an `/undo N` (`count` > 1) that could not put back every file of its `nth` turn: the
 * turns after it are taken back, it and those before it stay, to be tried again.
 */
export const turnsUnfinishedLine = (
  count: number,
  nth: number,
  question: string,
  done: { readonly restored: number; readonly removed: number; readonly failed: readonly NamedFile[] },
): string => {
  const left = count - nth + 1;
  const again = left === 1 ? "/undo" : `/undo ${left}`;
  return (
    `↩ undo not finished: ${nth - 1} of ${count} turns taken back; ${turnName(nth, question)}: ${done.restored} file(s) restored, ${done.removed} removed, ` +
    `but ${done.failed.length} could not be restored:${listed(done.failed)}\n` +
    `That turn${left > 1 ? " and those before it stay" : " stays"} in the conversation, and what those files held before it is kept with it: send ${again} again once they can be written, ` +
    `or ${again} force to take ${left > 1 ? "them" : "it"} out anyway (they stay as they are, and files changed since are put back too).`
  );
};

/** The chunk when the conversation has fewer turns than `/undo N` asks for. */
export const tooFewTurnsLine = (count: number, have: number): string =>
  have === 0
    ? "↩ nothing to undo: the conversation has no turn."
    : `↩ nothing undone: the conversation has ${have} turn(s), not ${count}${have === 1 ? "; send /undo to take it back" : `; send /undo ${have} to take them all back`}.`;
