import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "./input-depth.js";

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
};

describe("nestsDeeperThan", () => {
  it("measures nesting without recursion, even 100,000 levels deep", () => {
    expect(nestsDeeperThan({ command: "ls" }, 64)).toBe(false);
    expect(nestsDeeperThan(nested(64), 64)).toBe(false);
    expect(nestsDeeperThan(nested(65), 64)).toBe(true);
    expect(nestsDeeperThan(nested(100_000), 64)).toBe(true);
    expect(nestsDeeperThan("text", 0)).toBe(false);
  });
});
