import { describe, expect, it } from "vitest";
import { isSessionId, newSessionId } from "./session-id.js";

describe("session ids", () => {
  it("are UTC, time-sortable and of the spec's form", () => {
    const id = newSessionId({ now: () => Date.UTC(2026, 8, 16, 10, 15, 30) }, { hex: () => "4f2a9c1e" });
    expect(id).toBe("20260916-101530-4f2a9c1e");
    expect(isSessionId(id)).toBe(true);
  });
  it("refuse anything that could be a path", () => {
    for (const bad of ["../20260916-101530-4f2a9c1e", "/etc/passwd", "20260916-101530-4f2a9c1e\0", "x".repeat(5000), 42]) {
      expect(isSessionId(bad)).toBe(false);
    }
  });
});
