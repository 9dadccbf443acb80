import { describe, expect, it } from "vitest";
import { createLoopDetector } from "./loop-detector.js";

describe("loop detector", () => {
  it("runs a call `repeats` times in a row, blocks the next ones, and stops at twice the limit", () => {
    const loop = createLoopDetector(3);
    const verdicts = Array.from({ length: 6 }, () => loop.check("bash", { command: "ls" }));
    expect(verdicts).toEqual(["run", "run", "run", "block", "block", "stop"]);
  });
  it("starts counting again when the input changes", () => {
    const loop = createLoopDetector(2);
    expect(loop.check("bash", { command: "ls" })).toBe("run");
    expect(loop.check("bash", { command: "ls" })).toBe("run");
    expect(loop.check("bash", { command: "pwd" })).toBe("run");
    expect(loop.check("bash", { command: "ls" })).toBe("run");
  });
});
