/**
 * `session/prompt`: flatten the prompt, then, in the turn queue (the process's, or the session's with
 * sessions side by side), make sure this process may
 * change the session, and either run a slash command or a turn; keep what the engine returns, saved
 * as the turn goes and at its end, say when it could not be saved, log the turn's counts.
 */
import { err, ok, type Result } from "neverthrow";
import { advertisedSkills, slashCommandOf, undoCommandOf } from "../commands/slash-command.js";
import { flattenPrompt, type FlatPrompt } from "../prompt/flatten-prompt.js";
import type { PromptBlock } from "../prompt/prompt-blocks.js";
import { titleOf } from "../session/title.js";
import { resolveSkillNotation } from "../skills/skill-notation.js";
import type { Emit } from "../turn/events.js";
import { runTurn, type StopReason } from "../turn/run-turn.js";
import { placeLockedToolbox } from "../session/place-locked-toolbox.js";
import { recordingToolbox } from "../undo/recording-toolbox.js";
import { lastTurnIndex } from "../undo/undo-log.js";
import type { AgentState, LiveSession } from "./agent-state.js";
import { holdResults } from "./held-results.js";
import { holdSession, persistSession, tellUnsaved } from "./persist.js";
import { compactCommand, newCommand } from "./slash-commands.js";
import { carryUndo, startTurnFiles, undoCommand } from "./undo-command.js";

/** How a prompt ended: a stop reason, or a failure explained in one line. */
export type PromptResult = { readonly stopReason: Exclude<StopReason, "failed"> } | { readonly stopReason: "failed"; readonly error: string };

/** A prompt refused before it ran: this process may not change the session (another one holds it, or changed it). */
export type SessionRefused = { readonly kind: "session-refused"; readonly sessionId: string; readonly reason: string };

const skillNames = (state: AgentState): ReadonlySet<string> => new Set(advertisedSkills(state.deps.skills.list()).map((s) => s.name));

/** Names a session after its first prompt, and says so. */
const nameAfter = (live: LiveSession, text: string, emit: Emit): void => {
  if (live.session.title !== undefined) return;
  const title = titleOf(text);
  if (title === undefined) return;
  live.session = { ...live.session, title };
  emit({ type: "title", title });
};

const turn = async (state: AgentState, live: LiveSession, flat: FlatPrompt, emit: Emit, signal: AbortSignal): Promise<PromptResult> => {
  const { text } = flat;
  nameAfter(live, state.settings.redact?.(text) ?? text, emit);
  const { session } = live;
  const results = state.deps.store === undefined ? { emit, release: () => undefined } : holdResults(emit);
  const question = resolveSkillNotation(text, skillNames(state));
  const files = await startTurnFiles(state, live, question);
  const outcome = await runTurn({ ...state.deps, callIds: state.callIds, warn: state.warn }, state.settings, {
    sessionId: session.id,
    cwd: session.cwd,
    ...(live.roots.length > 0 ? { roots: live.roots } : {}),
    history: session.history,
    grants: session.grants,
    lastInputTokens: session.lastInputTokens,
    text: question,
    ...(state.settings.vision === true && flat.images.length > 0 ? { images: flat.images } : {}),
    // Outermost, so the recorder's before-states and the tracker's snapshot are taken holding the cwd.
    toolbox: placeLockedToolbox(files === undefined ? live.toolbox : recordingToolbox(live.toolbox, files), state.places, [session.cwd, ...live.roots]),
    mode: session.mode,
    model: session.model,
    ...(session.effort !== undefined ? { effort: session.effort } : {}),
    ...(session.cost !== undefined ? { cost: session.cost } : {}),
    ...(live.imagesRefused === true ? { imagesRefused: true } : {}),
    ...(live.fs !== undefined ? { fs: live.fs } : {}),
    signal,
    emit: results.emit,
    onProgress: async (history) => {
      await persistSession(state, live, history);
      results.release();
    },
  }).finally(results.release);
  const notKept = await files?.finish(outcome.history);
  const turnAt = lastTurnIndex(outcome.history);
  live.undoNotKept = notKept === undefined || turnAt === undefined ? undefined : { at: turnAt, reason: notKept };
  live.session = { ...live.session, history: outcome.history, grants: outcome.grants, lastInputTokens: outcome.lastInputTokens, cost: outcome.cost };
  if (outcome.imagesRefused) live.imagesRefused = true;
  await persistSession(state, live);
  tellUnsaved(live, emit);
  const { commands, fileOps, skills } = outcome.counts;
  const counts = `${commands} command(s) · ${fileOps} file op(s) · ${skills} skill(s)`;
  // One line per turn, the spec's `turn done: <counts>`; a failed turn's says why after it, as a
  // problem (shown even in a quiet log).
  if (outcome.stopReason !== "failed") {
    state.log(`turn done: ${counts}`);
    return { stopReason: outcome.stopReason };
  }
  const error = outcome.error ?? "the turn failed";
  state.problem(`turn done: ${counts} · failed: ${error}`);
  return { stopReason: "failed", error };
};

/** Runs one prompt of a live session: a slash command or a turn, in the agent's queue; refused when the session is held elsewhere. */
export const promptSession = async (
  state: AgentState,
  live: LiveSession,
  blocks: readonly PromptBlock[],
  emit: Emit,
): Promise<Result<PromptResult, SessionRefused>> => {
  const controller = new AbortController();
  live.inFlight.add(controller);
  try {
    const { id, cwd } = live.session;
    const flat = await flattenPrompt(blocks, cwd, state.deps.fs, state.settings.home, live.roots);
    for (const path of flat.attached) state.log(`session ${id}: attached ${path}`);
    const command = slashCommandOf(flat.text);
    const undo = state.deps.undo === undefined ? undefined : undoCommandOf(flat.text);
    return await state.queue.run(
      id,
      controller.signal,
      async (): Promise<Result<PromptResult, SessionRefused>> => {
        const refused = await holdSession(state, live);
        if (refused !== undefined) return err({ kind: "session-refused", sessionId: id, reason: refused });
        const history = live.session.history;
        if (command === "new") await newCommand(state, live, emit);
        else if (command === "compact") await compactCommand(state, live, emit, controller.signal);
        else if (undo !== undefined) await state.places.hold([cwd, ...live.roots], () => undoCommand(state, live, emit, undo.force, undo.count));
        else return ok(await turn(state, live, flat, emit, controller.signal));
        // The history rewritten: the recorded turns go to their new places, or go.
        if (command !== undefined && live.session.history !== history) await carryUndo(state, live, history);
        return ok({ stopReason: controller.signal.aborted ? "cancelled" : "end_turn" });
      },
      () => ok({ stopReason: "cancelled" }),
    );
  } finally {
    live.inFlight.delete(controller);
  }
};
