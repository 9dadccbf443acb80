import { describe, expect, it } from "vitest";
import { outcomeOf } from "./tool-result.js";

const image = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" };

describe("outcomeOf", () => {
  it("never repeats an image as text from structuredContent (server-filesystem's read_media_file)", () => {
    const outcome = outcomeOf({ content: [image], structuredContent: { content: [image] } }, 30_000);
    expect(outcome).toEqual({ status: "completed", output: "[1 image(s)]", diffs: [], images: [{ data: image.data, mimeType: "image/png" }] });
  });

  it("uses structuredContent when content holds nothing", () => {
    expect(outcomeOf({ content: [], structuredContent: { temperature: 21 } }, 30_000)).toMatchObject({ output: '{"temperature":21}' });
  });

  it("joins text blocks, names resources, and fails on isError", () => {
    const outcome = outcomeOf(
      {
        content: [
          { type: "text", text: "a" },
          { type: "resource_link", name: "n", uri: "file:///x" },
        ],
        isError: true,
      },
      30_000,
    );
    expect(outcome).toEqual({ status: "failed", output: "a\n[link: n file:///x]", diffs: [] });
  });
});
