/** Deterministic clock and randomness for tests. */
import type { Clock, RandomHex } from "../ports/clock.js";

/** A Clock that moves only when told. */
export type ManualClock = Clock & { advance: (ms: number) => void };

/** A manual clock starting at `start` (2026-09-16 10:15:30 UTC by default). */
export const manualClock = (start = Date.UTC(2026, 8, 16, 10, 15, 30)): ManualClock => {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
};

/** Hex digits from a counter: `00000001`, `00000002`, … */
export const counterHex = (): RandomHex => {
  let n = 0;
  return { hex: (digits) => (++n).toString(16).padStart(digits, "0").slice(-digits) };
};
