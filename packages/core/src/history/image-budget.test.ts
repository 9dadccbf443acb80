import { describe, expect, it } from "vitest";
import { boundImages, imageBytesOf, withBoundedImages } from "./image-budget.js";
import type { ImageData, ToolResultMessage } from "./message.js";

/** An image of `bytes` decoded bytes. */
const image = (bytes: number): ImageData => ({ data: "A".repeat(Math.ceil(bytes / 3) * 4), mimeType: "image/png" });
const budget = { perResult: 3000, perSession: 5000 };

describe("boundImages", () => {
  it("keeps images within the result's and the session's bytes, and names each one left out", () => {
    const { kept, lines, bytes } = boundImages([image(1500), image(1500), image(300)], budget, 0);
    expect(kept).toHaveLength(2);
    expect(bytes).toBe(3000);
    expect(lines).toEqual(["[image/png, 0 KB, not kept: over the 3 KB of images one tool result keeps (tools.maxImageBytes)]"]);
  });

  it("leaves out what the session has no room for (a smaller one after it may fit)", () => {
    const { kept, lines } = boundImages([image(1200), image(600)], budget, 4000);
    expect(kept).toHaveLength(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("not kept: the session already holds the 5 KB of images it keeps (tools.maxSessionImageBytes)");
  });
});

describe("withBoundedImages", () => {
  const result = (images: ImageData[]): ToolResultMessage => ({
    role: "tool",
    callId: "call_1",
    toolName: "cam",
    status: "completed",
    output: "a picture",
    images,
  });

  it("is the same value when every image fits", () => {
    const fits = result([image(1000)]);
    expect(withBoundedImages(fits, budget, 0)).toBe(fits);
  });

  it("puts placeholders after the text, and drops the images key when none is left", () => {
    const bounded = withBoundedImages(result([image(4000)]), budget, 0);
    expect(bounded.images).toBeUndefined();
    expect(bounded.output).toMatch(/^a picture\n\[image\/png, 4 KB, not kept: over the 3 KB/);
  });

  it("counts what a history holds", () => {
    expect(imageBytesOf([result([image(300), image(600)]), { role: "user", text: "x", images: [image(3)] }])).toBe(903);
  });
});
