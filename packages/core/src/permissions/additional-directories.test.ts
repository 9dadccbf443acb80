import { describe, expect, it } from "vitest";
import { outside } from "./always-ask.js";
import { screenFile } from "./screen-call.js";

const rules = { allow: ["edits"], ask: [], deny: [] };

describe("the session's additional directories count as the project", () => {
  const place = { cwd: "/w/p", roots: ["/w/lib"] };

  it("a path in one is not outside; elsewhere still is", () => {
    expect(outside(place, "/w/lib/src/a.ts")).toBe(false);
    expect(outside(place, "../lib/a.ts")).toBe(false);
    expect(outside(place, "/w/library/a.ts")).toBe(true);
    expect(outside({ cwd: "/w/p" }, "/w/lib/a.ts")).toBe(true);
  });

  it("an edit in one goes as one in the cwd; elsewhere it is always asked", () => {
    expect(screenFile("edits", "/w/lib/a.ts", rules, "edits", place).verdict).toBe("run");
    expect(screenFile("edits", "/w/lib/a.ts", rules, "sandbox", place).verdict).toBe("run");
    expect(screenFile("edits", "/w/other/a.ts", rules, "edits", place).verdict).toBe("ask");
  });
});
