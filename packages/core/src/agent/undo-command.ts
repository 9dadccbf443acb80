/**
 * `/undo` as a session sees it: the last turn's files put back (unless one changed since and the user
 * did not say `force`), the turn out of the history (the conversation so far kept under a new id, as
 * `/new` keeps it), the undo log one turn shorter, one chunk saying what was done and what cannot be.
 * Also the recorder every turn of such a session runs with, and forgetting the log when the history
 * is rewritten (`/new`, `/compact`).
 */
import type { History } from "../history/message.js";
import { describeFsError, type FileSystem } from "../ports/file-system.js";
import { DEFAULT_UNDO_LIMITS, describeUndoStoreError, type UndoLimits, type UndoPlace, type UndoStore, type UndoTurn } from "../ports/undo-store.js";
import type { Emit } from "../turn/events.js";
import { conflictLine, NOTHING_TO_UNDO, planUndo, undoneLine, unfinishedLine, type CurrentState, type NamedFile, type UndoAction } from "../undo/plan-undo.js";
import { stateOfNow, turnFiles, type TurnFiles } from "../undo/turn-files.js";
import { carriedOver } from "../undo/undo-log.js";
import {
  firstConflict,
  lastTurnsOf,
  tooFewTurnsLine,
  turnIndexes,
  turnName,
  turnsConflictLine,
  turnsUnfinishedLine,
  type TurnBack,
} from "../undo/undo-turns.js";
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
  const deps = { store, fs: fsOf(state, live), limits: limitsOf(state), warn: state.warn, now: () => state.deps.clock.now() };
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

/** Each path once (its last reason). */
const once = (files: readonly NamedFile[]): NamedFile[] => [...new Map(files.map((f) => [f.path, f] as const)).values()];

/**
 * `/undo` (`force`: restore files changed since the turn too); `/undo N` (`count`): the last N turns,
 * as N `/undo` in a row, but checked as a whole before any file is touched: a turn whose files would
 * refuse (changed since, its changes not kept) refuses them all, named.
 */
export const undoCommand = async (state: AgentState, live: LiveSession, emit: Emit, force: boolean, count = 1): Promise<void> => {
  const store = state.deps.undo;
  const { id, history } = live.session;
  const say = (text: string): void => {
    emit({ type: "notice", text });
    emitUsage(state, live, emit);
    tellUnsaved(live, emit);
    state.log(`session ${id}: /undo${count > 1 ? ` ${count}` : ""} — ${text.split("\n")[0]}`);
  };
  const many = count > 1;
  if (count < 1) return say("↩ nothing undone: /undo N takes back the last N turns, N from 1.");
  const have = turnIndexes(history).length;
  if (store === undefined || have === 0) return say(NOTHING_TO_UNDO);
  if (have < count) return say(tooFewTurnsLine(count, have));
  const place = placeOf(live);
  const loaded = await store.loadLog(place);
  if (loaded.isErr()) return say(`↩ nothing undone: ${describeUndoStoreError(loaded.error)}`);
  const turns = lastTurnsOf(loaded.value, history, count);
  if (turns === undefined) return say(tooFewTurnsLine(count, have));
  const notKeptAt = turns.back.findIndex((turn) => live.undoNotKept?.at === turn.at);
  if (notKeptAt >= 0 && live.undoNotKept !== undefined) {
    const which = many ? turnName(notKeptAt + 1, turns.back[notKeptAt]!.question) : "the last turn";
    return say(`↩ nothing undone: what ${which} changed could not be kept (${live.undoNotKept.reason})`);
  }
  const limits = limitsOf(state);
  // Checked as a whole first: each turn against what its files will hold once the later ones are back.
  if (!force) {
    const paths = [...new Set(turns.back.flatMap((turn) => (turn.turn?.files ?? []).map((file) => file.path)))];
    const now = new Map(await Promise.all(paths.map(async (path) => [path, await currentOf(store, path, limits)] as const)));
    const conflict = firstConflict(turns.back, now);
    if (conflict !== undefined) return say(many ? turnsConflictLine(conflict, count) : conflictLine(conflict.conflicts));
  }

  const fs = fsOf(state, live);
  const failed: NamedFile[] = [];
  const notRestorable: NamedFile[] = [];
  const keptFiles: NamedFile[] = [];
  // What each path ends as (the earliest turn's action wins): counted once however many turns touched it.
  const outcome = new Map<string, "restore" | "remove">();
  let done = 0;
  for (const [i, back] of turns.back.entries()) {
    const files = back.turn?.files ?? [];
    const plan = planUndo(files, await Promise.all(files.map((file) => currentOf(store, file.path, limits))));
    // Checked above; a file changed since by someone else meanwhile still stops here.
    if (plan.conflicts.length > 0 && !force) {
      if (done === 0)
        return say(many ? turnsConflictLine({ nth: i + 1, question: back.question, conflicts: plan.conflicts }, count) : conflictLine(plan.conflicts));
      break;
    }
    const turnFailed: NamedFile[] = [];
    const lost: NamedFile[] = [];
    let restored = 0;
    let removed = 0;
    for (const action of plan.actions) {
      const problem = await apply(store, fs, place, action);
      if (problem !== undefined) (problem.lost ? lost : turnFailed).push({ path: action.path, reason: problem.reason });
      else {
        outcome.set(action.path, action.kind);
        if (action.kind === "remove") removed++;
        else restored++;
      }
    }
    for (const file of turnFailed) state.problem(`session ${id}: /undo could not restore ${file.path}: ${file.reason}`);
    notRestorable.push(...plan.notRestorable, ...lost);
    keptFiles.push(...plan.kept);
    // A file not put back keeps the turn and its record (the only copy of what the file held): the
    // next /undo tries it again (what was put back is as before, so left); `force` takes the turn out.
    // One whose copy is lost (a blob missing or damaged) is named as not restorable: trying again cannot help.
    if (turnFailed.length > 0 && !force) {
      if (done === 0 && !many) return say(unfinishedLine(restored, removed, turnFailed));
      if (done === 0) return say(turnsUnfinishedLine(count, i + 1, back.question, { restored, removed, failed: turnFailed }));
      const stays = await takeOut(state, live, place, history, turns.back, done, turns.valid);
      return say(stays ?? turnsUnfinishedLine(count, i + 1, back.question, { restored, removed, failed: turnFailed }));
    }
    failed.push(...turnFailed);
    done++;
  }
  const stays = await takeOut(state, live, place, history, turns.back, done, turns.valid, failed);
  if (stays !== undefined) return say(stays);
  const restored = [...outcome.values()].filter((kind) => kind === "restore").length;
  say(
    undoneLine({
      restored,
      removed: outcome.size - restored,
      messages: live.session.history.length - 1,
      notRestorable: once(notRestorable),
      kept: once(keptFiles),
      failed: once(failed),
      recorded: turns.back.slice(0, done).some((turn) => turn.turn !== undefined),
      turns: done,
    }),
  );
};

/**
 * Takes the first `done` of `back` (latest first) out of the conversation, the conversation so far
 * kept under a new id first, the undo log back to the records before them. What to say instead when
 * the conversation could not be kept (the turns stay; their files are back).
 */
const takeOut = async (
  state: AgentState,
  live: LiveSession,
  place: UndoPlace,
  history: History,
  back: readonly TurnBack[],
  done: number,
  /** The log's records that are not stale, oldest first. */
  records: readonly UndoTurn[],
  failed: readonly NamedFile[] = [],
): Promise<string | undefined> => {
  const store = state.deps.undo;
  const first = back[done - 1];
  if (store === undefined || first === undefined) return undefined;
  const notKept = await keepBeforeUndo(state, live, history);
  if (notKept !== undefined) {
    const but = failed.length === 0 ? "" : `, but these, left as they are:${failed.map((f) => `\n- ${f.path}: ${f.reason}`).join("")}\n`;
    const again = back.length > 1 ? `/undo ${back.length}` : "/undo";
    return (
      `↩ the ${done > 1 ? "turns stay" : "turn stays"}: the conversation so far could not be saved (${notKept}); its files are back as before the ${done > 1 ? "turns" : "turn"}${but === "" ? ". " : but}` +
      `Send ${again} again to take ${done > 1 ? "them" : "it"} out of the conversation.`
    );
  }
  const kept: History = [history[0], ...history.slice(1, first.at)];
  live.session = { ...live.session, history: kept, lastInputTokens: undefined, ...(kept.length === 1 ? { title: undefined } : {}) };
  await persistSession(state, live);
  const earlier = records.filter((turn) => turn.at < first.at);
  const saved = await store.saveLog(place, { turns: earlier });
  if (saved.isErr()) state.problem(`session ${live.session.id}: undo data not saved: ${describeUndoStoreError(saved.error)}`);
  return undefined;
};
