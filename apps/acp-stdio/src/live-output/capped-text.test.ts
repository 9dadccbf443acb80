import { describe, expect, it } from "vitest";
import { cappedText } from "./capped-text.js";

describe("cappedText", () => {
  it("keeps everything within the budget", () => {
    const t = cappedText(10);
    for (const part of ["ab", "cd", "efghij"]) t.append(part);
    expect(t.text()).toBe("abcdefghij");
  });

  it("keeps the head and the latest tail beyond it, saying how much was cut", () => {
    const t = cappedText(10);
    for (let i = 0; i < 1000; i++) t.append(`${i % 10}`);
    expect(t.text()).toBe("01234\n[… 990 bytes cut …]\n56789");
  });

  it("counts UTF-8 bytes and never cuts inside a character", () => {
    const t = cappedText(8);
    t.append("ééééé"); // 10 bytes: the head takes two (4 bytes), the rest goes to the tail
    t.append("xyzw");
    expect(t.text()).toBe("éé\n[… 6 bytes cut …]\nxyzw");
  });

  it("starts again once cleared", () => {
    const t = cappedText(4);
    t.append("abcdefgh");
    t.clear();
    t.append("xy");
    expect(t.text()).toBe("xy");
  });
});
