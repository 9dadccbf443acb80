/**
 * `/undo` as a session sees it: the last turn's files put back (unless one changed since and the user
 * did not say `force`), the turn out of the history (the conversation so far kept under a new id, as
 * `/new` keeps it), the undo log one turn shorter, one chunk saying what was done and what cannot be.
 * Also the recorder every turn of such a session runs with, and forgetting the log when the history
 * is rewritten (`/new`, `/compact`).
 */
import type { History } from "../history/message.js";
import { describeFsError, type FileSystem } from "../ports/file-system.js";
import { DEFAULT_UNDO_LIMITS, describeUndoStoreError, type UndoLimits, type UndoPlace, type UndoStore } from "../ports/undo-store.js";
import type { Emit } from "../turn/events.js";
import { conflictLine, NOTHING_TO_UNDO, planUndo, undoneLine, unfinishedLine, type CurrentState, type NamedFile, type UndoAction } from "../undo/plan-undo.js";
import { stateOfNow, turnFiles, type TurnFiles } from "../undo/turn-files.js";
import { carriedOver, lastTurnIndex, lastTurnOf } from "../undo/undo-log.js";
import type { AgentState, LiveSession } from "./agent-state.js";
import { persistSession, tellUnsaved } from "./persist.js";
import { keepBeforeUndo } from "./keep-before-undo.js";
import { emitUsage } from "./slash-commands.js";

const limitsOf = (state: AgentState): UndoLimits => state.settings.undoLimits ?? DEFAULT_UNDO_LIMITS;
const placeOf = (live: LiveSession): UndoPlace => ({ cwd: live.session.cwd, sessionId: live.session.id });
const fsOf = (state: AgentState, live: LiveSession): FileSystem => live.fs ?? state.deps.fs;

/** The recorder of a turn about to run with `question` as its prompt; undefined without an undo store. */
export const startTurnFiles = async (state: AgentState, live: LiveSession, question: string): Promise<TurnFiles | undefined> => {
  const store = state.deps.undo;
  if (store === undefined) return undefined;
  const deps = { store, fs: fsOf(state, live), limits: limitsOf(state), warn: state.warn };
  return turnFiles(deps, placeOf(live), live.session.history, question);
};

/**
 * The session's history was rewritten from `before` (`/new`, `/compact`): the recorded turns still in
 * it (those a compaction kept whole) are moved to their new places, the others forgotten.
 */
export const carryUndo = async (state: AgentState, live: LiveSession, before: History): Promise<void> => {
  const store = state.deps.undo;
  if (store === undefined) return;
  const loaded = await store.loadLog(placeOf(live));
  const turns = loaded.isOk() ? carriedOver(loaded.value.turns, before, live.session.history) : [];
  const saved = await store.saveLog(placeOf(live), { turns });
  if (saved.isErr()) state.problem(`session ${live.session.id}: undo data not cleared: ${describeUndoStoreError(saved.error)}`);
};

const currentOf = async (store: UndoStore, path: string, limits: UndoLimits): Promise<CurrentState> =>
  stateOfNow(store, await store.read(path, limits.maxFileBytes));

/** Why a restore may not write `path`: the session's file system (the sandbox's boundary) refuses it, or lands it elsewhere. */
const boundaryProblem = async (fs: FileSystem, path: string): Promise<string | undefined> => {
  if (fs.realPath === undefined) return undefined;
  const landed = await fs.realPath(path);
  if (landed.isErr()) return describeFsError(landed.error);
  return landed.value === path ? undefined : `a symbolic link on its way now leads elsewhere (${landed.value}); not written through`;
};

/**
 * Puts one file back: undefined when done; else why, and whether trying again can help (`lost`: what
 * the file held is gone from the undo data, so no later /undo can put it back).
 */
const apply = async (
  store: UndoStore,
  fs: FileSystem,
  place: UndoPlace,
  action: UndoAction,
): Promise<{ readonly reason: string; readonly lost: boolean } | undefined> => {
  const problem = await boundaryProblem(fs, action.path);
  if (problem !== undefined) return { reason: problem, lost: false };
  let bytes: Uint8Array | null = null;
  if (action.to.kind === "blob") {
    const blob = await store.getBlob(place, action.to.hash);
    if (blob.isErr()) return { reason: describeUndoStoreError(blob.error), lost: true };
    bytes = blob.value;
  }
  const restored = await store.restore(action.path, bytes, action.to.kind === "blob" ? action.to.mode : undefined);
  return restored.isOk() ? undefined : { reason: restored.error, lost: false };
};

/** `/undo` (`force`: restore files changed since the turn too). */
export const undoCommand = async (state: AgentState, live: LiveSession, emit: Emit, force: boolean): Promise<void> => {
  const store = state.deps.undo;
  const { id, history } = live.session;
  const say = (text: string): void => {
    emit({ type: "notice", text });
    emitUsage(state, live, emit);
    tellUnsaved(live, emit);
    state.log(`session ${id}: /undo — ${text.split("\n")[0]}`);
  };
  const at = lastTurnIndex(history);
  if (store === undefined || at === undefined) return say(NOTHING_TO_UNDO);
  if (live.undoNotKept?.at === at) return say(`↩ nothing undone: what the last turn changed could not be kept (${live.undoNotKept.reason})`);
  const place = placeOf(live);
  const loaded = await store.loadLog(place);
  if (loaded.isErr()) return say(`↩ nothing undone: ${describeUndoStoreError(loaded.error)}`);
  const { turn, earlier } = lastTurnOf(loaded.value, history);
  const files = turn?.files ?? [];
  const limits = limitsOf(state);
  const plan = planUndo(files, await Promise.all(files.map((file) => currentOf(store, file.path, limits))));
  if (plan.conflicts.length > 0 && !force) return say(conflictLine(plan.conflicts));

  const fs = fsOf(state, live);
  const failed: NamedFile[] = [];
  const lost: NamedFile[] = [];
  let restored = 0;
  let removed = 0;
  for (const action of plan.actions) {
    const problem = await apply(store, fs, place, action);
    if (problem !== undefined) (problem.lost ? lost : failed).push({ path: action.path, reason: problem.reason });
    else if (action.kind === "remove") removed++;
    else restored++;
  }
  const notRestorable = [...plan.notRestorable, ...lost];
  for (const file of failed) state.problem(`session ${id}: /undo could not restore ${file.path}: ${file.reason}`);
  // A file not put back keeps the turn and its record (the only copy of what the file held): the
  // next /undo tries it again (what was put back is as before, so left); `force` takes the turn out.
  // One whose copy is lost (a blob missing or damaged) is named as not restorable: trying again cannot help.
  if (failed.length > 0 && !force) return say(unfinishedLine(restored, removed, failed));
  const notKept = await keepBeforeUndo(state, live, history);
  if (notKept !== undefined) {
    const but = failed.length === 0 ? "" : `, but these, left as they are:${failed.map((f) => `\n- ${f.path}: ${f.reason}`).join("")}\n`;
    return say(
      `↩ the turn stays: the conversation so far could not be saved (${notKept}); its files are back as before the turn${but === "" ? ". " : but}` +
        "Send /undo again to take it out of the conversation.",
    );
  }
  const kept: History = [history[0], ...history.slice(1, at)];
  live.session = { ...live.session, history: kept, lastInputTokens: undefined, ...(kept.length === 1 ? { title: undefined } : {}) };
  await persistSession(state, live);
  const saved = await store.saveLog(place, { turns: earlier });
  if (saved.isErr()) state.problem(`session ${id}: undo data not saved: ${describeUndoStoreError(saved.error)}`);
  say(undoneLine({ restored, removed, messages: kept.length - 1, notRestorable, kept: plan.kept, failed, recorded: turn !== undefined }));
};
