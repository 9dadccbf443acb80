/** Compacts a history through the Model port: plan, summarise, splice in the summary message. */
import { summaryMessage, type History } from "../history/message.js";
import type { Clock } from "../ports/clock.js";
import type { Model } from "../ports/model.js";
import { estimateTokens } from "../turn/token-estimate.js";
import { planCompaction } from "./plan-compaction.js";
import { SUMMARY_SYSTEM_PROMPT, summaryRequestText } from "./summary-request.js";

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

export type CompactionDeps = { readonly model: Model; readonly clock: Clock };

const summarise = async (model: Model, text: string, signal: AbortSignal): Promise<{ ok: string } | { err: string }> => {
  let summary = "";
  try {
    for await (const event of model.step({
      system: SUMMARY_SYSTEM_PROMPT,
      messages: [{ role: "user", text }],
      tools: [],
      signal,
    })) {
      if (event.type === "text") summary += event.text;
      else if (event.type === "error") return { err: event.error.message };
      else if (event.type === "finish") break;
    }
  } catch (thrown) {
    return { err: String(thrown).split("\n")[0] ?? "summary failed" };
  }
  if (signal.aborted) return { err: "cancelled" };
  return summary.trim() === "" ? { err: "the model returned an empty summary" } : { ok: summary.trim() };
};

export const compactHistory = async (
  deps: CompactionDeps,
  history: History,
  keepLastTurns: number,
  signal: AbortSignal,
): Promise<CompactionResult> => {
  const plan = planCompaction(history, keepLastTurns);
  if (plan.kind === "nothing") return { kind: "nothing", messages: plan.messageCount, keepLastTurns };
  const started = deps.clock.now();
  const summary = await summarise(deps.model, summaryRequestText(plan.replaced), signal);
  if ("err" in summary) return { kind: "failed", reason: summary.err };
  const compacted: History = [history[0], summaryMessage(summary.ok), ...plan.kept];
  return {
    kind: "compacted",
    history: compacted,
    replaced: plan.replaced.length,
    kept: plan.kept.length,
    tokens: estimateTokens(compacted),
    seconds: (deps.clock.now() - started) / 1000,
    summary: summary.ok,
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
