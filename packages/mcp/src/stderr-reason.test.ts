import { describe, expect, it } from "vitest";
import { stderrReason, stderrTail } from "./stderr-reason.js";

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

describe("stderrTail", () => {
  it("keeps the last six lines for the log, each and all capped", () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i}`).join("\n");
    expect(stderrTail(`${lines}\n\n`)).toBe("line 4 | line 5 | line 6 | line 7 | line 8 | line 9");
    expect(stderrTail(`${"y".repeat(300)}\n`)).toBe(`${"y".repeat(200)}…`);
    const long = stderrTail(Array.from({ length: 6 }, () => "z".repeat(250)).join("\n"));
    expect(long.length).toBeLessThanOrEqual(801);
    expect(long.startsWith("…")).toBe(true);
    expect(stderrTail("")).toBe("");
  });
});
