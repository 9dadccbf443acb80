/**
 * Which messages a compaction replaces. A turn is a user message and everything up to the next
 * one; the last `keepLastTurns` turns are kept whole, so a tool call is never split from its result.
 */
import type { History, Message } from "../history/message.js";

export type CompactionPlan =
  | { readonly kind: "nothing"; readonly messageCount: number }
  | { readonly kind: "compact"; readonly replaced: readonly Message[]; readonly kept: readonly Message[] };

/** Indices (in the history) of the messages that start a turn. */
export const turnStarts = (history: History): readonly number[] => {
  const starts: number[] = [];
  for (let i = 1; i < history.length; i++) if (history[i]!.role === "user") starts.push(i);
  return starts;
};

export const planCompaction = (history: History, keepLastTurns: number): CompactionPlan => {
  const starts = turnStarts(history);
  const keep = Math.max(0, Math.floor(keepLastTurns));
  if (starts.length <= keep) return { kind: "nothing", messageCount: history.length - 1 };
  const cut = keep === 0 ? history.length : starts[starts.length - keep]!;
  if (cut <= 1) return { kind: "nothing", messageCount: history.length - 1 };
  return { kind: "compact", replaced: history.slice(1, cut), kept: history.slice(cut) };
};
