import { describe, expect, it } from "vitest";
import { summaryMessage, userMessage } from "../history/message.js";
import { MAX_TITLE_LENGTH, titleOf, titleOfHistory } from "./title.js";

describe("titleOf", () => {
  it("takes the first line with text, folding its whitespace", () => {
    expect(titleOf("\n  Fix   the\tbuild  \nthen run the tests")).toBe("Fix the build");
    expect(titleOf("   \n \n")).toBeUndefined();
  });
  it("skips mm's own attachment and skill lines, and cuts a long line with an ellipsis", () => {
    expect(titleOf("\n[attached file: /w/a.ts]\nexplain it")).toBe("explain it");
    const long = titleOf("é".repeat(200))!;
    expect([...long]).toHaveLength(MAX_TITLE_LENGTH);
    expect(long.endsWith("…")).toBe(true);
  });
  it("derives a history's title from its first real user message", () => {
    expect(titleOfHistory([summaryMessage("old stuff"), userMessage("rename foo")])).toBe("rename foo");
    expect(titleOfHistory([])).toBeUndefined();
  });
});
