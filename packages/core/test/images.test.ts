/**
 * Images reach the model only when it reads them (`vision`), whatever holds them: a tool's result now,
 * or a session's history from before (issue 29: one MCP screenshot made every later turn of a
 * text-only server fail with a 400).
 */
import { describe, expect, it } from "vitest";
import { errorReply, textReply, toolReply } from "../src/testing/index.js";
import { anyObject } from "../src/schema/schema.js";
import { completed, defineTool } from "../src/tools/tool.js";
import { harness } from "./harness.js";

const shot = { mimeType: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAfbLI3wAAAABJRU5ErkJggg==" };
const screenshot = defineTool({
  name: "screenshot",
  description: "takes a screenshot",
  guidance: "takes a screenshot",
  kind: "read",
  counts: "command",
  gated: false,
  input: anyObject({ type: "object" }),
  title: () => "screenshot",
  run: async () => completed("[1 image(s)]", [], [shot]),
});

const turns = (vision: boolean) => {
  const h = harness({
    replies: [toolReply([{ name: "screenshot", input: {} }]), textReply("seen"), textReply("again")],
    tools: [screenshot],
    settings: { vision },
  });
  return h;
};

describe("images and model.vision", () => {
  it("without vision, a tool's image reaches the model as a placeholder, in this turn and the next", async () => {
    const h = turns(false);
    const s = await h.start("/w");
    await h.prompt(s, [{ type: "text", text: "look" }]);
    await h.prompt(s, [{ type: "text", text: "and now?" }]);
    for (const request of h.model.requests.slice(1)) {
      const tool = request.messages.find((m) => m.role === "tool");
      expect(tool).toEqual(expect.objectContaining({ output: "[1 image(s)]\n[image/png, 70 B, not shown: the model does not read images]" }));
      expect(tool).not.toHaveProperty("images");
    }
  });

  it("with vision, the image is sent as an image", async () => {
    const h = turns(true);
    const s = await h.start("/w");
    await h.prompt(s, [{ type: "text", text: "look" }]);
    expect(h.model.requests[1]!.messages.find((m) => m.role === "tool")).toEqual(expect.objectContaining({ output: "[1 image(s)]", images: [shot] }));
  });

  it("a server refusing images is told once, and from then on gets placeholders: this step, this turn and the next", async () => {
    const refused = { kind: "images-refused" as const, message: "the model server refused the images (400): this model does not support image input" };
    const h = harness({
      replies: [toolReply([{ name: "screenshot", input: {} }]), errorReply(refused), textReply("seen"), textReply("again")],
      tools: [screenshot],
      settings: { vision: true },
    });
    const s = await h.start("/w");
    const first = await h.prompt(s, [{ type: "text", text: "look" }]);
    const second = await h.prompt(s, [{ type: "text", text: "and now?" }]);
    expect([first.stopReason, second.stopReason]).toEqual(["end_turn", "end_turn"]);
    const [, withImage, ...after] = h.model.requests;
    expect(withImage!.messages.find((m) => m.role === "tool")).toHaveProperty("images");
    expect(after).toHaveLength(2);
    for (const request of after) expect(request.messages.find((m) => m.role === "tool")).not.toHaveProperty("images");
    const notices = h.events.filter((e) => e.type === "notice" && e.text.includes("refused the images"));
    expect(notices).toHaveLength(1);
    expect(h.text()).toContain("this model does not support image input; images go as text placeholders for the rest of this session");
    expect(h.logs.join("\n")).toContain("images go as placeholders from now on");
  });
});
