import { describe, expect, it } from "vitest";
import { resolveSkillNotation, rewriteSlashSkill, skillsNamed } from "./skill-notation.js";

const skills = new Set(["greetings", "vulcan-salute", "compact"]);

describe("skill notation", () => {
  it("rewrites /skill args to $skill args, and nothing else", () => {
    expect(rewriteSlashSkill("/greetings Bob", skills)).toBe("$greetings Bob");
    expect(rewriteSlashSkill("  /greetings", skills)).toBe("  $greetings");
    expect(rewriteSlashSkill("/nope Bob", skills)).toBe("/nope Bob");
    expect(rewriteSlashSkill("/compact", skills)).toBe("/compact");
    expect(rewriteSlashSkill("please /greetings Bob", skills)).toBe("please /greetings Bob");
    expect(rewriteSlashSkill("/greetingsBob", skills)).toBe("/greetingsBob");
  });
  it("names each skill once, in order, only for known skills", () => {
    expect(skillsNamed("$vulcan-salute x $greetings y $greetings $unknown", skills)).toEqual(["vulcan-salute", "greetings"]);
    expect(skillsNamed("costs $5 and a$greetings", skills)).toEqual([]);
  });
  it("appends one [use skill: name] line per skill", () => {
    expect(resolveSkillNotation("/greetings Bob and $vulcan-salute Spock", skills)).toBe(
      "$greetings Bob and $vulcan-salute Spock\n[use skill: greetings]\n[use skill: vulcan-salute]",
    );
    expect(resolveSkillNotation("no skills here", skills)).toBe("no skills here");
  });
});
