import { describe, expect, it } from "vitest";
import { imagePlaceholder, withoutImages } from "./images-for-model.js";
import { assistantMessage, userMessage, type Message, type ToolResultMessage } from "./message.js";

/** `bytes` bytes of image, base64. */
const png = (bytes: number) => ({ mimeType: "image/png", data: "A".repeat(Math.ceil(bytes / 3) * 4) });

describe("imagePlaceholder", () => {
  it("names the type and the decoded size", () => {
    expect(imagePlaceholder(png(77 * 1024))).toBe("[image/png, 77 KB, not shown: the model does not read images]");
    expect(imagePlaceholder({ mimeType: "image/gif", data: "R0lGODlhAQABAAAAACw=" })).toBe("[image/gif, 14 B, not shown: the model does not read images]");
  });
});

describe("withoutImages", () => {
  it("returns the same messages when none holds an image", () => {
    const messages: Message[] = [userMessage("q"), assistantMessage("a", [])];
    expect(withoutImages(messages)).toBe(messages);
  });

  it("turns the images of tool results and prompts into placeholders, keeping the rest", () => {
    const tool: ToolResultMessage = {
      role: "tool",
      callId: "call_1",
      toolName: "fs__read_media_file",
      status: "completed",
      output: "[1 image(s)]",
      images: [png(3000)],
    };
    expect(withoutImages([userMessage("look", [png(2048)]), assistantMessage("", [{ id: "call_1", name: "fs__read_media_file", input: {} }]), tool])).toEqual([
      userMessage("look\n[image/png, 2 KB, not shown: the model does not read images]"),
      assistantMessage("", [{ id: "call_1", name: "fs__read_media_file", input: {} }]),
      {
        role: "tool",
        callId: "call_1",
        toolName: "fs__read_media_file",
        status: "completed",
        output: "[1 image(s)]\n[image/png, 3 KB, not shown: the model does not read images]",
      },
    ]);
  });
});
