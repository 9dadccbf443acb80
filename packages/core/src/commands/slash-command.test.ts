import { describe, expect, it } from "vitest";
import { advertisedSkills, shadowedSkills, undoCommandOf } from "./slash-command.js";

const skills = [{ name: "undo" }, { name: "compact" }, { name: "review" }];

describe("commands and the skills they shadow", () => {
  it("names a skill called undo as shadowed only where /undo exists", () => {
    expect(shadowedSkills(skills)).toEqual(["compact"]);
    expect(shadowedSkills(skills, { undo: true })).toEqual(["undo", "compact"]);
    expect(advertisedSkills(skills, { undo: true }).map((s) => s.name)).toEqual(["review"]);
    expect(advertisedSkills(skills).map((s) => s.name)).toEqual(["undo", "review"]);
  });

  it("reads /undo, /undo force, /undo N and /undo N force, nothing else", () => {
    expect(undoCommandOf("  /undo ")).toEqual({ force: false, count: 1 });
    expect(undoCommandOf("/undo force")).toEqual({ force: true, count: 1 });
    expect(undoCommandOf("/undo 3")).toEqual({ force: false, count: 3 });
    expect(undoCommandOf(" /undo  2 force ")).toEqual({ force: true, count: 2 });
    expect(undoCommandOf("/undo force 2")).toEqual({ force: true, count: 2 });
    expect(undoCommandOf("/undo 0")).toEqual({ force: false, count: 0 });
    expect(undoCommandOf("/undo 2 3")).toBeUndefined();
    expect(undoCommandOf("/undo force force")).toBeUndefined();
    expect(undoCommandOf("/undo -1")).toBeUndefined();
    expect(undoCommandOf("/undo 1.5")).toBeUndefined();
    expect(undoCommandOf("/undo it all")).toBeUndefined();
    expect(undoCommandOf("/undoing")).toBeUndefined();
  });
});
