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

  it("reads /undo and /undo force, nothing else", () => {
    expect(undoCommandOf("  /undo ")).toEqual({ force: false });
    expect(undoCommandOf("/undo force")).toEqual({ force: true });
    expect(undoCommandOf("/undo it all")).toBeUndefined();
    expect(undoCommandOf("/undoing")).toBeUndefined();
  });
});
