/**
 * Which messages a compaction replaces. A turn is a user message and everything up to the next
 * one; the last `keepLastTurns` turns are kept whole, so a tool call is never split from its result.
 */
import * as O from "fp-ts/lib/Option.js";
import * as RA from "fp-ts/lib/ReadonlyArray.js";
import { pipe } from "fp-ts/lib/function.js";
import type { History, Message } from "../history/message.js";

/** Nothing to replace (with the message count, system prompt aside), or the messages replaced and kept. */
export type CompactionPlan =
  | { readonly kind: "nothing"; readonly messageCount: number }
  | { readonly kind: "compact"; readonly replaced: readonly Message[]; readonly kept: readonly Message[] };

/** Indices (in the history) of the messages that start a turn. */
export const turnStarts = (history: History): readonly number[] =>
  pipe(
    history,
    RA.filterMapWithIndex((i, m) => (i > 0 && m.role === "user" ? O.some(i) : O.none)),
  );

/** Where the kept part starts: the history's end when none is kept, else the start of the first kept turn. */
const cutIndex = (history: History, keep: number): O.Option<number> => {
  const starts = turnStarts(history);
  if (starts.length <= keep) return O.none;
  return keep === 0 ? O.some(history.length) : RA.lookup(starts.length - keep)(starts);
};

/** What a compaction keeping the last `keepLastTurns` turns would replace and keep. */
export const planCompaction = (history: History, keepLastTurns: number): CompactionPlan =>
  pipe(
    cutIndex(history, Math.max(0, Math.floor(keepLastTurns))),
    O.filter((cut) => cut > 1),
    O.match(
      (): CompactionPlan => ({ kind: "nothing", messageCount: history.length - 1 }),
      (cut): CompactionPlan => ({ kind: "compact", replaced: history.slice(1, cut), kept: history.slice(cut) }),
    ),
  );
