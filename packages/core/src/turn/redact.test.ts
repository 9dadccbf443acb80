import { describe, expect, it } from "vitest";
import { redactDeep } from "./redact.js";

const redact = (text: string) => text.split("SECRET").join("[x]");

describe("redactDeep", () => {
  it("replaces in every string, deep, and leaves image data alone", () => {
    const value = { output: "a SECRET", diffs: [{ path: "p", oldText: null, newText: "SECRET=1" }], images: [{ data: "SECRET", mimeType: "image/png" }], n: 1 };
    expect(redactDeep(redact, value)).toEqual({
      output: "a [x]",
      diffs: [{ path: "p", oldText: null, newText: "[x]=1" }],
      images: [{ data: "SECRET", mimeType: "image/png" }],
      n: 1,
    });
  });

  it("is the same value when nothing changed", () => {
    const value = { output: "clean", diffs: [{ path: "p", oldText: "a", newText: "b" }] };
    expect(redactDeep(redact, value)).toBe(value);
  });
});
