import { describe, expect, it } from "vitest";
import { stderrReason } from "./stderr-reason.js";

describe("stderrReason", () => {
  it("takes a Node exception's message, not the version line Node ends with", () => {
    const tail =
      "file:///srv/index.js:3\nthrow new Error('boom: config missing')\n^\n\nError: boom: config missing\n    at file:///srv/index.js:3:7\n\nNode.js v22.23.5\n";
    expect(stderrReason(tail)).toBe("Error: boom: config missing");
  });

  it("takes a Python traceback's exception", () => {
    expect(stderrReason("Traceback (most recent call last):\n  File \"s.py\", line 1, in <module>\nModuleNotFoundError: No module named 'mcp'\n")).toBe(
      "ModuleNotFoundError: No module named 'mcp'",
    );
  });

  it("takes the first line naming an error, else the last line, capped", () => {
    expect(stderrReason("starting\ntest-mcp: cannot start: TEST_TOKEN is not set\nbye\n")).toBe("test-mcp: cannot start: TEST_TOKEN is not set");
    expect(stderrReason("starting\nlistening\n")).toBe("listening");
    expect(stderrReason(`${"x".repeat(500)}\n`)).toHaveLength(200);
    expect(stderrReason("\n\n")).toBeUndefined();
  });
});
