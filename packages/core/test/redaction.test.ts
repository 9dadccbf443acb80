/**
 * The host's secrets out of what a call hands on (issue 36): with `settings.redact`, the engine
 * replaces them in the events the editor is shown, the result the model reads and the session keeps,
 * and the prompt; and images past the budget become placeholders in both alike (issue 37).
 */
import { describe, expect, it } from "vitest";
import { textReply, toolReply } from "../src/testing/index.js";
import { anyObject } from "../src/schema/schema.js";
import { completed, defineTool } from "../src/tools/tool.js";
import { harness } from "./harness.js";

const KEY = "sk-core-redaction-1234";
const redact = (text: string) => text.split(KEY).join("[redacted]");

const leaky = defineTool({
  name: "leaky",
  description: "answers the key",
  guidance: "answers the key",
  kind: "read",
  counts: "command",
  gated: false,
  input: anyObject({ type: "object" }),
  title: () => `leaky ${KEY}`,
  run: async () => completed(`key=${KEY}`, [{ path: "/w/env", oldText: null, newText: `KEY=${KEY}\n` }], [{ mimeType: "image/png", data: "A".repeat(8000) }]),
});

describe("settings.redact and settings.images", () => {
  it("replace the key in every event, the kept result and the prompt; an image over the budget is a placeholder for both", async () => {
    const h = harness({
      replies: [toolReply([{ name: "leaky", input: {} }]), textReply("done")],
      tools: [leaky],
      settings: { redact, images: { perResult: 1000, perSession: 1000 } },
    });
    const s = await h.start("/w");
    await h.prompt(s, [{ type: "text", text: `here is ${KEY}` }]);
    expect(JSON.stringify(h.events)).not.toContain(KEY);
    const sent = h.model.requests[1]!.messages;
    expect(JSON.stringify(sent)).not.toContain(KEY);
    const result = sent.find((m) => m.role === "tool");
    expect(result).toEqual(
      expect.objectContaining({ output: "key=[redacted]\n[image/png, 6 KB, not kept: over the 1 KB of images one tool result keeps (tools.maxImageBytes)]" }),
    );
    const done = h.events.find((e) => e.type === "tool-done");
    expect(done).toEqual(
      expect.objectContaining({ output: "key=[redacted]\n[image/png, 6 KB, not kept: over the 1 KB of images one tool result keeps (tools.maxImageBytes)]" }),
    );
    expect(done).not.toHaveProperty("images");
    expect(sent.find((m) => m.role === "user")).toEqual(expect.objectContaining({ text: "here is [redacted]" }));
  });
});
