/** Output of a running bash call as `tool-output` events; how full the context is after /new. */
import { describe, expect, it } from "vitest";
import { textReply, toolReply } from "../src/testing/index.js";
import type { TurnEvent } from "../src/turn/events.js";
import { estimateTokens } from "../src/history/token-estimate.js";
import { harness } from "./harness.js";

const say = (t: string) => [{ type: "text" as const, text: t }];
const tick = () => new Promise((r) => setTimeout(r, 1));

describe("a running bash call", () => {
  it("reports its output as it comes, between tool-running and tool-done, and the final output whole", async () => {
    const h = harness({
      replies: [toolReply([{ name: "bash", input: { command: "make" } }]), textReply("built")],
      shell: async (_request, write) => {
        write("compiling\n");
        await tick();
        write("");
        write("linking\n");
        await tick();
        return { exitCode: 2 };
      },
    });
    const s = await h.start("/w");
    await h.prompt(s, say("build"), h.emit);
    const calls = h.events.filter((e) => e.type.startsWith("tool-"));
    expect(calls.map((e) => (e.type === "tool-output" ? `output ${e.text}` : e.type))).toEqual([
      "tool-pending",
      "tool-running",
      "output compiling\n",
      "output linking\n",
      "tool-done",
    ]);
    const output = calls[2] as Extract<TurnEvent, { type: "tool-output" }>;
    expect(output.call).toMatchObject({ id: "call_1", title: "bash: make", streamsOutput: true });
    expect(calls.at(-1)).toMatchObject({ status: "failed", output: "compiling\nlinking\n[exit code: 2]", exit: { code: 2, signal: null } });
    expect(s.history.find((m) => m.role === "tool")).toEqual({
      role: "tool",
      callId: "call_1",
      toolName: "bash",
      status: "failed",
      output: "compiling\nlinking\n[exit code: 2]",
    });
  });

  it("sends nothing for a silent command, nor anything a command prints after it was reported done", async () => {
    let late: ((text: string) => void) | undefined;
    const h = harness({
      replies: [toolReply([{ name: "bash", input: { command: "true" } }]), textReply("ok")],
      shell: (request) => {
        late = request.onOutput;
        return { output: "" };
      },
    });
    const s = await h.start("/w");
    await h.prompt(s, say("go"), h.emit);
    late?.("too late\n");
    expect(h.events.filter((e) => e.type === "tool-output")).toEqual([]);
  });
});

describe("/new", () => {
  it("tells how full the context is afterwards: the system prompt alone", async () => {
    const h = harness({ replies: [textReply("a1", { inputTokens: 900 })] });
    const s = await h.start("/w");
    await h.prompt(s, say("one"), h.emit);
    h.events.length = 0;
    await h.prompt(s, say("/new"), h.emit);
    expect(h.events.map((e) => e.type)).toEqual(["notice", "usage"]);
    expect(h.events[1]).toEqual({ type: "usage", used: estimateTokens(s.history), size: 128000 });
    expect(s.history).toHaveLength(1);
  });
});
