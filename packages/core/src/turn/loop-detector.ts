/**
 * The loop detector: the same tool with the same input `repeats` times in a row is not run again;
 * at twice the limit the turn ends.
 */

/** Run the call, refuse it, or end the turn. */
export type LoopVerdict = "run" | "block" | "stop";

/** Watches a turn's calls for the same call repeated. */
export type LoopDetector = { readonly check: (name: string, input: unknown) => LoopVerdict };

const signature = (name: string, input: unknown): string => `${name}\u0000${JSON.stringify(input) ?? ""}`;

/** A detector allowing `repeats` identical calls in a row. */
export const createLoopDetector = (repeats: number): LoopDetector => {
  let last = "";
  let count = 0;
  return {
    check: (name, input) => {
      const current = signature(name, input);
      count = current === last ? count + 1 : 1;
      last = current;
      if (count <= repeats) return "run";
      return count >= 2 * repeats ? "stop" : "block";
    },
  };
};
