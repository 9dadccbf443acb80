import { describe, expect, it } from "vitest";
import { isInside, normalizeAbsolute, resolvePath } from "./path.js";

describe("resolvePath", () => {
  it("keeps absolute paths, normalised", () => {
    expect(resolvePath("/w", "/a/./b//c/../d")).toBe("/a/b/d");
  });
  it("resolves relative paths against the cwd", () => {
    expect(resolvePath("/w/p", "src/../x.ts")).toBe("/w/p/x.ts");
  });
  it("expands ~ only when a home is known", () => {
    expect(resolvePath("/w", "~/notes.md", "/home/u")).toBe("/home/u/notes.md");
    expect(resolvePath("/w", "~/notes.md")).toBe("/w/~/notes.md");
  });
  it("never climbs above the root", () => {
    expect(normalizeAbsolute("/../../etc")).toBe("/etc");
  });
});

describe("isInside", () => {
  it("tells a path under a directory from a sibling with the same prefix", () => {
    expect(isInside("/w/p", "/w/p/a")).toBe(true);
    expect(isInside("/w/p", "/w/p")).toBe(true);
    expect(isInside("/w/p", "/w/pp")).toBe(false);
  });
});
