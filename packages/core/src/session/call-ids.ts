/**
 * An agent's tool-call id counter: `call_1`, `call_2`, … one per `createAgent` (shared by all its
 * sessions; `mm-acp` makes one agent a process), never reset, never repeated.
 */
import type { History } from "../history/message.js";

/** An agent's counter of tool-call ids. */
export type CallIds = {
  readonly next: () => string;
  /** Moves the counter past the highest `call_N` of a history, so a loaded session never repeats an id. */
  readonly bumpPast: (history: History) => void;
};

const CALL_ID = /^call_(\d+)$/;

/** The highest `N` of the `call_N` ids of a history (0 when none). */
export const highestCallNumber = (history: History): number => {
  let highest = 0;
  for (const message of history) {
    if (message.role !== "assistant") continue;
    for (const call of message.toolCalls) {
      const match = CALL_ID.exec(call.id);
      if (match) highest = Math.max(highest, Number(match[1]));
    }
  }
  return highest;
};

/** A counter starting at `call_1`. */
export const createCallIds = (): CallIds => {
  let last = 0;
  return {
    next: () => `call_${++last}`,
    bumpPast: (history) => {
      last = Math.max(last, highestCallNumber(history));
    },
  };
};
