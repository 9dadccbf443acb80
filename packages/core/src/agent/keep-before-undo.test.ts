import { describe, expect, it } from "vitest";
import { type History, systemMessage, userMessage } from "../history/message.js";
import { titleBeforeUndo } from "./keep-before-undo.js";

const conversation = (...questions: string[]): History => [systemMessage("sys"), ...questions.map((q) => userMessage(q))];

describe("titleBeforeUndo", () => {
  it("names the session and the turn taken back, each cut short", () => {
    expect(titleBeforeUndo("Fix the login bug", conversation("Fix the login bug", "rename the helper"))).toBe(
      'Fix the login bug (before /undo of "rename the helper")',
    );
    expect(titleBeforeUndo("Fix the login bug", conversation("Fix the login bug"))).toBe("Fix the login bug (before /undo)");
    const long = titleBeforeUndo("a".repeat(100), conversation("a".repeat(100), "b".repeat(100)));
    expect(long).toBe(`${"a".repeat(39)}… (before /undo of "${"b".repeat(29)}…")`);
    expect(titleBeforeUndo(undefined, conversation())).toBe("(before /undo)");
  });
});
