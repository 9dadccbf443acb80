/** Compacts a history through the Model port: plan, summarise, splice in the summary message. */
import { err, ok, type Result } from "neverthrow";
import { summaryMessage, userMessage, type History } from "../history/message.js";
import type { Clock } from "../ports/clock.js";
import type { Model, Usage } from "../ports/model.js";
import { runModelStep } from "../model/model-step.js";
import { estimateTokens } from "../history/token-estimate.js";
import { SUMMARY_SYSTEM_PROMPT, summaryRequestText } from "./summary-request.js";

/** How a compaction went: compacted (with the new history and figures), nothing to do, or failed. */
export type CompactionResult =
  | {
      readonly kind: "compacted";
      readonly history: History;
      readonly replaced: number;
      readonly kept: number;
      readonly tokens: number;
      readonly seconds: number;
      readonly summary: string;
    }
  | { readonly kind: "nothing"; readonly messages: number; readonly keepLastTurns: number }
  | { readonly kind: "failed"; readonly reason: string };

/** The ports a compaction uses. */
export type CompactionDeps = { readonly model: Model; readonly clock: Clock };

const NO_TEXT_LISTENER = (): void => undefined;

/** The summary of `text` by the model: one ordinary step, no tools. */
const summarise = async (
  model: Model,
  text: string,
  signal: AbortSignal,
  modelName: string | undefined,
  onUsage: ((usage: Usage) => void) | undefined,
): Promise<Result<string, string>> => {
  const step = await runModelStep(
    model,
    { model: modelName, system: SUMMARY_SYSTEM_PROMPT, messages: [userMessage(text)], tools: [], signal },
    NO_TEXT_LISTENER,
  );
  if (step.usage !== undefined) onUsage?.(step.usage);
  if (step.error !== undefined) return err(step.error.kind === "aborted" ? "cancelled" : step.error.message);
  if (step.finishReason === "length") return err("the summary was cut off at the model's output limit");
  if (step.finishReason === "content-filter") return err("the model server's content filter stopped the summary");
  const summary = step.text.trim();
  return summary === "" ? err("the model returned an empty summary") : ok(summary);
};

/** Compacts `history` keeping its last `keepLastTurns` turns, summarised by the model. */
export const compactHistory = async (
  deps: CompactionDeps,
  history: History,
  keepLastTurns: number,
  signal: AbortSignal,
  /** The model to ask, when not the adapter's default (the session's choice). */
  modelName?: string,
  /** Told the summary step's usage, when the server reported one (what it cost). */
  onUsage?: (usage: Usage) => void,
): Promise<CompactionResult> => {
  // Imported when a session first compacts (rarely, and before a model call): start-up loads none of
  // the planning, nor fp-ts, which it is written with.
  const { planCompaction } = await import("./plan-compaction.js");
  const plan = planCompaction(history, keepLastTurns);
  if (plan.kind === "nothing") return { kind: "nothing", messages: plan.messageCount, keepLastTurns };
  const started = deps.clock.now();
  const summary = await summarise(deps.model, summaryRequestText(plan.replaced), signal, modelName, onUsage);
  if (summary.isErr()) return { kind: "failed", reason: summary.error };
  const compacted: History = [history[0], summaryMessage(summary.value), ...plan.kept];
  return {
    kind: "compacted",
    history: compacted,
    replaced: plan.replaced.length,
    kept: plan.kept.length,
    tokens: estimateTokens(compacted),
    seconds: (deps.clock.now() - started) / 1000,
    summary: summary.value,
  };
};

/** The spec's one-line chunk for each outcome. */
export const compactionLine = (result: CompactionResult): string => {
  switch (result.kind) {
    case "compacted":
      return `🗜️ compressed ${result.replaced} messages → 1 summary + ${result.kept} kept (${result.tokens} tokens, ${result.seconds.toFixed(1)}s)`;
    case "nothing":
      return `🗜️ nothing to compact: ${result.messages} message(s), no turn older than the last ${result.keepLastTurns}`;
    case "failed":
      return `[compact: failed, history kept: ${result.reason}]`;
  }
};
