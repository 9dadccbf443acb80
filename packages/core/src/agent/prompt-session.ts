/**
 * `session/prompt`: flatten the prompt, then, in the process-wide queue, either run a slash command
 * or a turn; keep the history the engine returns, save it, log the turn's counts.
 */
import { advertisedSkills, slashCommandOf } from "../commands/slash-command.js";
import { flattenPrompt } from "../prompt/flatten-prompt.js";
import type { PromptBlock } from "../prompt/prompt-blocks.js";
import type { Session } from "../session/session.js";
import { resolveSkillNotation } from "../skills/skill-notation.js";
import type { Emit } from "../turn/events.js";
import { runTurn, type StopReason } from "../turn/run-turn.js";
import type { Agent } from "./agent.js";
import { persistSession } from "./persist.js";
import { compactCommand, newCommand } from "./slash-commands.js";

export type PromptResult =
  | { readonly stopReason: Exclude<StopReason, "failed"> }
  | { readonly stopReason: "failed"; readonly error: string };

const skillNames = (agent: Agent): ReadonlySet<string> => new Set(advertisedSkills(agent.deps.skills.list()).map((s) => s.name));

const turn = async (agent: Agent, session: Session, text: string, emit: Emit, signal: AbortSignal): Promise<PromptResult> => {
  const outcome = await runTurn(agent.deps, agent.settings, {
    sessionId: session.id,
    cwd: session.cwd,
    history: session.history,
    grants: session.grants,
    lastInputTokens: session.lastInputTokens,
    text: resolveSkillNotation(text, skillNames(agent)),
    ...(session.fs !== undefined ? { fs: session.fs } : {}),
    signal,
    emit,
  });
  session.history = outcome.history;
  session.lastInputTokens = outcome.lastInputTokens;
  await persistSession(agent, session);
  const { commands, fileOps, skills } = outcome.counts;
  agent.deps.log(`turn done: ${commands} command(s) · ${fileOps} file op(s) · ${skills} skill(s)`);
  return outcome.stopReason === "failed"
    ? { stopReason: "failed", error: outcome.error ?? "the turn failed" }
    : { stopReason: outcome.stopReason };
};

export const promptSession = async (
  agent: Agent,
  session: Session,
  blocks: readonly PromptBlock[],
  emit: Emit,
): Promise<PromptResult> => {
  const controller = new AbortController();
  session.inFlight.add(controller);
  try {
    const flat = await flattenPrompt(blocks, session.cwd, agent.deps.fs, agent.settings.home);
    for (const path of flat.attached) agent.deps.log(`session ${session.id}: attached ${path}`);
    const command = slashCommandOf(flat.text);
    return await agent.queue.run(
      controller.signal,
      async (): Promise<PromptResult> => {
        if (command === "new") await newCommand(agent, session, emit);
        else if (command === "compact") await compactCommand(agent, session, emit, controller.signal);
        else return turn(agent, session, flat.text, emit, controller.signal);
        return { stopReason: controller.signal.aborted ? "cancelled" : "end_turn" };
      },
      () => ({ stopReason: "cancelled" }),
    );
  } finally {
    session.inFlight.delete(controller);
  }
};
