import { describe, expect, it } from "vitest";
import { stepCost } from "./step-cost.js";

const prices = { input: 3, cachedInput: 0.3, output: 15, model: "m1" };

describe("step cost", () => {
  it("takes what the server reported first", () => {
    expect(stepCost({ inputTokens: 1000, outputTokens: 10, cost: 0.0042 }, prices, undefined)).toBe(0.0042);
  });

  it("prices fresh input, cached input and output per million tokens", () => {
    expect(stepCost({ inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000 }, prices, undefined)).toBeCloseTo(
      0.6 * 3 + 0.4 * 0.3 + 0.1 * 15,
      10,
    );
    expect(stepCost({ inputTokens: 2_000_000 }, { input: 1, output: 2 }, "any")).toBeCloseTo(2, 10);
  });

  it("knows nothing without usage, without prices, or for another model than the priced one", () => {
    expect(stepCost(undefined, prices, undefined)).toBeUndefined();
    expect(stepCost({ inputTokens: 10, outputTokens: 10 }, undefined, undefined)).toBeUndefined();
    expect(stepCost({ inputTokens: 10, outputTokens: 10 }, prices, "m2")).toBeUndefined();
    expect(stepCost({}, prices, undefined)).toBeUndefined();
  });
});
