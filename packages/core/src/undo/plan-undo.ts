/**
 * What `/undo` does to the files of a turn, decided from what the turn recorded and what each file
 * holds now: put back, remove, leave (already as before), refuse (changed since: someone else's work),
 * or name as not restorable (its before-state was not kept). Pure.
 */
import type { UndoFile, UndoFileState } from "../ports/undo-store.js";

/** What a file holds now, as `/undo` compares it. */
export type CurrentState = UndoFileState;

/** A file to put back: `to` its before-state; `removed` when the turn created it. */
export type UndoAction = { readonly path: string; readonly to: Exclude<UndoFileState, { kind: "unknown" }>; readonly kind: "restore" | "remove" };

/** A file named to the user, with why. */
export type NamedFile = { readonly path: string; readonly reason: string };

export type UndoPlan = {
  readonly actions: readonly UndoAction[];
  /** Files whose content is not what the turn left: nothing is restored unless forced. */
  readonly conflicts: readonly NamedFile[];
  /** Files whose before-state was not kept. */
  readonly notRestorable: readonly NamedFile[];
  /**
   * Files the turn made that stay: with a file not restorable, what the turn made may hold the only
   * copy of what it held (a rename, a copy), so nothing made is removed.
   */
  readonly kept: readonly NamedFile[];
};

/** Why a file the turn made is not removed. */
export const KEPT_REASON = "made by the turn, not removed";

/** The same content. */
const sameContent = (a: UndoFileState, b: UndoFileState): boolean =>
  a.kind === "absent" ? b.kind === "absent" : a.kind === "blob" && b.kind === "blob" && a.hash === b.hash;

/** The same content, and the same mode where both modes were seen. */
const same = (a: UndoFileState, b: UndoFileState): boolean =>
  sameContent(a, b) && (a.kind !== "blob" || b.kind !== "blob" || a.mode === undefined || b.mode === undefined || a.mode === b.mode);

/**
 * Back as before already: the same content, its mode no wider than before (a restore that narrowed
 * it, a file put back by hand with its own mode where git's was guessed).
 */
const asBefore = (before: UndoFileState, now: CurrentState): boolean =>
  sameContent(before, now) &&
  (before.kind !== "blob" || now.kind !== "blob" || before.mode === undefined || now.mode === undefined || (now.mode & ~before.mode) === 0);

const conflictReason = (after: UndoFileState, now: CurrentState): string => {
  if (after.kind === "unknown") return `cannot tell whether it changed since the turn (${after.reason})`;
  if (now.kind === "unknown") return `changed since the turn: ${now.reason}`;
  if (now.kind === "absent") return "removed since the turn";
  return after.kind === "absent" ? "created again since the turn" : "changed since the turn";
};

/**
 * The mode a restored file gets: its mode before the turn, but never more than it has now when its
 * mode changed after what was recorded (a `chmod 600` since, or the turn's own `chmod +x`, which no
 * tracker reports): a restore takes back the turn's content and never widens who may read a file.
 */
const restoredMode = (before: UndoFileState & { kind: "blob" }, after: UndoFileState, now: CurrentState): number | undefined => {
  if (before.mode === undefined) return undefined;
  const changedSince = now.kind === "blob" && now.mode !== undefined && (after.kind !== "blob" || after.mode !== now.mode);
  return changedSince ? before.mode & now.mode! : before.mode;
};

/** The plan for `files` (the turn's), given what each holds now (same order). */
export const planUndo = (files: readonly UndoFile[], now: readonly CurrentState[]): UndoPlan => {
  const actions: UndoAction[] = [];
  const conflicts: NamedFile[] = [];
  // What the turn may have taken for good: files it changed or removed whose state before was not kept.
  const lost: NamedFile[] = files.flatMap((file) => (file.before.kind === "unknown" ? [{ path: file.path, reason: file.before.reason }] : []));
  const notRestorable: NamedFile[] = [...lost];
  const kept: NamedFile[] = [];
  files.forEach((file, i) => {
    const current = now[i] ?? { kind: "unknown", reason: "not read" };
    const before = file.before;
    if (before.kind === "unknown") return;
    // Made by the turn, but not as a file /undo can read (a link, a file over its limit): left, named.
    if (before.kind === "absent" && file.after.kind === "unknown") {
      if (current.kind !== "absent") notRestorable.push({ path: file.path, reason: `made by the turn, not removed: ${file.after.reason}` });
      return;
    }
    // As before already, or the turn left it as it found it (made then removed, changed back): what
    // it holds now is not the turn's doing.
    if (asBefore(before, current) || same(before, file.after)) return;
    // Only what the turn provably made is removed, and only when nothing it touched is lost for good.
    if (before.kind === "absent" && lost.length > 0) {
      kept.push({ path: file.path, reason: KEPT_REASON });
      return;
    }
    // What someone else did since: content only (a mode changed since is kept in check by restoredMode).
    if (!sameContent(file.after, current)) conflicts.push({ path: file.path, reason: conflictReason(file.after, current) });
    if (before.kind === "absent") actions.push({ path: file.path, to: before, kind: "remove" });
    else {
      const mode = restoredMode(before, file.after, current);
      const { mode: _seen, ...content } = before;
      actions.push({ path: file.path, to: mode === undefined ? content : { ...content, mode }, kind: "restore" });
    }
  });
  return { actions, conflicts, notRestorable, kept };
};

/** What was done, for the one-line summary. */
export type UndoDone = {
  readonly restored: number;
  readonly removed: number;
  /** Conversation messages left (the system prompt not counted). */
  readonly messages: number;
  readonly notRestorable: readonly NamedFile[];
  /** Files the turn made, left where they are (see {@link UndoPlan.kept}). */
  readonly kept?: readonly NamedFile[];
  /** Actions that failed: the file is as it was before `/undo`. */
  readonly failed: readonly NamedFile[];
  /** Whether the turn had recorded file changes at all. */
  readonly recorded: boolean;
  /** How many turns were taken back (`/undo N`); one when not given. */
  readonly turns?: number;
};

/** What `/undo` never takes back. */
export const NOT_UNDONE =
  "Not undone: what the turn's commands did besides files (commits, installed packages, network calls, processes), nor their changes to files mm does not watch (those git ignores, node_modules).";

const listed = (files: readonly NamedFile[]): string => files.map((f) => `\n- ${f.path}: ${f.reason}`).join("");

/** The chunk of a done `/undo`. */
export const undoneLine = (done: UndoDone): string => {
  const what = (done.turns ?? 1) > 1 ? `the last ${done.turns} turns` : "the last turn";
  const head = `↩ undid ${what}: ${done.restored} file(s) restored, ${done.removed} removed, history back to ${done.messages} message(s)`;
  const unrecorded = done.recorded ? "" : (done.turns ?? 1) > 1 ? " (the turns made no file change mm saw)" : " (the turn made no file change mm saw)";
  const notRestorable = done.notRestorable.length === 0 ? "" : `\nNot restorable (left as they are):${listed(done.notRestorable)}`;
  const kept = (done.kept ?? []).length === 0 ? "" : `\nKept (they may hold what the files not restorable held):${listed(done.kept ?? [])}`;
  const failed = done.failed.length === 0 ? "" : `\nCould not be restored (left as they are):${listed(done.failed)}`;
  return `${head}${unrecorded}.${notRestorable}${kept}${failed}\n${NOT_UNDONE}`;
};

/** The chunk of an `/undo` that could not put every file back: the turn stays, to be tried again. */
export const unfinishedLine = (restored: number, removed: number, failed: readonly NamedFile[]): string =>
  `↩ undo not finished: ${restored} file(s) restored, ${removed} removed, but ${failed.length} could not be restored:${listed(failed)}\n` +
  "The turn stays in the conversation, and what those files held before it is kept with it: send /undo again once they can be written, " +
  "or /undo force to take the turn out anyway (they stay as they are, and files changed since the turn are put back too).";

/** The chunk of an `/undo` refused because files changed since the turn. */
export const conflictLine = (conflicts: readonly NamedFile[]): string =>
  `↩ nothing undone: ${conflicts.length} file(s) are not as the last turn left them:${listed(conflicts)}\n` +
  "Send /undo force to restore them anyway (what they hold now is lost).";

/** The chunk when there is no turn to undo. */
export const NOTHING_TO_UNDO = "↩ nothing to undo: the conversation has no turn.";
