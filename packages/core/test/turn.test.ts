/** Scenario tests of the turn engine through promptSession, with a scripted model. */
import { describe, expect, it } from "vitest";
import { errorReply, hangingReply, textReply, toolReply } from "../src/testing/index.js";
import { harness } from "./harness.js";

const text = (t: string) => [{ type: "text" as const, text: t }];

describe("a turn", () => {
  it("streams the model's text and ends end_turn, keeping the exchange in history", async () => {
    const h = harness({ replies: [textReply(["Hel", "lo ", " there"])] });
    const s = await h.start("/w");
    expect(await h.prompt(s, text("hi"), h.emit)).toEqual({ stopReason: "end_turn" });
    expect(h.text()).toBe("Hello  there");
    expect(s.history.slice(1)).toEqual([
      { role: "user", text: "hi" },
      { role: "assistant", text: "Hello  there", toolCalls: [] },
    ]);
    expect(h.logs).toContain("turn done: 0 command(s) · 0 file op(s) · 0 skill(s)");
  });

  it("asks before bash, runs it, feeds the result back, and numbers calls across sessions", async () => {
    const h = harness({
      replies: [
        toolReply([{ name: "bash", input: { command: "ls" } }]),
        textReply("done"),
        toolReply([{ name: "bash", input: { command: "pwd" } }]),
        textReply("ok"),
      ],
      shell: (r) => ({ output: `ran ${r.command}\n` }),
    });
    const s1 = await h.start("/w");
    await h.prompt(s1, text("list"), h.emit);
    expect(h.gate.requests.map((r) => r.call.title)).toEqual(["bash: ls"]);
    expect(h.shell.requests[0]).toMatchObject({ command: "ls", cwd: "/w" });
    const secondRequest = h.model.requests[1]!;
    expect(secondRequest.messages.at(-1)).toEqual({ role: "tool", callId: "call_1", toolName: "bash", status: "completed", output: "ran ls\n[exit code: 0]" });
    expect(h.events.map((e) => e.type)).toEqual(["title", "usage", "tool-pending", "tool-running", "tool-done", "text", "usage"]);
    const s2 = await h.start("/x");
    await h.prompt(s2, text("where"), h.emit);
    const ids = s2.history.flatMap((m) => (m.role === "assistant" ? m.toolCalls.map((c) => c.id) : []));
    expect(ids).toEqual(["call_2"]);
    expect(h.logs.at(-1)).toBe("turn done: 1 command(s) · 0 file op(s) · 0 skill(s)");
  });

  it("ends a cut-off answer max_tokens with a notice, and runs none of its calls but tells the model", async () => {
    const cut = {
      kind: "events" as const,
      events: [
        { type: "text" as const, text: "Writing it" },
        { type: "tool-call" as const, id: "m1", name: "bash", input: { command: "echo hal" } },
        { type: "finish" as const, usage: { inputTokens: 5, outputTokens: 9 }, reason: "length" as const },
      ],
    };
    const h = harness({ replies: [cut, textReply("again")] });
    const s = await h.start("/w");
    expect(await h.prompt(s, text("go"), h.emit)).toEqual({ stopReason: "max_tokens" });
    expect(h.shell.requests).toEqual([]);
    expect(h.gate.requests).toEqual([]);
    expect(h.text()).toBe("Writing it\n[answer cut off: the model reached its output limit]\n");
    expect(s.history.at(-1)).toMatchObject({
      role: "tool",
      callId: "call_1",
      status: "failed",
      output: expect.stringContaining("cut off at the model's output limit"),
    });
    await h.prompt(s, text("go on"), h.emit);
    expect(h.model.requests[1]!.messages.find((m) => m.role === "tool")).toMatchObject({ output: expect.stringContaining("not run") });
  });

  it("ends an answer the content filter stopped as refusal, with a notice", async () => {
    const h = harness({
      replies: [
        {
          kind: "events",
          events: [
            { type: "text", text: "Sure" },
            { type: "finish", usage: {}, reason: "content-filter" },
          ],
        },
      ],
    });
    const s = await h.start("/w");
    expect(await h.prompt(s, text("go"), h.emit)).toEqual({ stopReason: "refusal" });
    expect(h.text()).toContain("[answer stopped by the model server's content filter]");
  });

  it("tells the model a rejected call was rejected, and does not run it", async () => {
    const h = harness({ replies: [toolReply([{ name: "bash", input: { command: "rm -rf /" } }]), textReply("ok")], gate: "reject" });
    const s = await h.start("/w");
    await h.prompt(s, text("clean"), h.emit);
    expect(h.shell.requests).toEqual([]);
    expect(h.model.requests[1]!.messages.at(-1)).toMatchObject({ status: "failed", output: "[command rejected by the user]" });
    expect(h.events.find((e) => e.type === "tool-done")).toMatchObject({ status: "failed" });
  });

  it("remembers allow_always for that tool name in that session only", async () => {
    const h = harness({
      replies: [
        toolReply([{ name: "bash", input: { command: "a" } }]),
        toolReply([
          { name: "bash", input: { command: "b" } },
          { name: "read_file", input: { path: "f" } },
        ]),
        textReply("ok"),
        toolReply([{ name: "bash", input: { command: "c" } }]),
        textReply("ok"),
      ],
      files: { "/w/f": "x" },
      gate: "allow_always",
    });
    const s = await h.start("/w");
    await h.prompt(s, text("go"), h.emit);
    expect(h.gate.requests.map((r) => r.call.name)).toEqual(["bash", "read_file"]);
    const other = await h.start("/w");
    await h.prompt(other, text("go"), h.emit);
    expect(h.gate.requests.map((r) => r.call.name)).toEqual(["bash", "read_file", "bash"]);
  });

  it("never runs an unknown or differently-cased tool, nor a call with invalid input", async () => {
    const h = harness({
      replies: [
        toolReply([
          { name: "Bash", input: { command: "id" } },
          { name: "bash", input: { cmd: "id" } },
          { name: "sh", input: {} },
        ]),
        textReply("ok"),
      ],
    });
    const s = await h.start("/w");
    await h.prompt(s, text("go"), h.emit);
    expect(h.shell.requests).toEqual([]);
    expect(h.gate.requests).toEqual([]);
    const outputs = s.history.flatMap((m) => (m.role === "tool" ? [m.output] : []));
    expect(outputs[0]).toMatch(/^\[unknown tool "Bash"/);
    expect(outputs[1]).toBe('[invalid input for bash: "command" must be a string]');
  });

  it("stops a looping model: blocks repeats, then ends the turn", async () => {
    const same = () => toolReply([{ name: "bash", input: { command: "ls" } }]);
    const h = harness({ replies: Array.from({ length: 10 }, same) });
    const s = await h.start("/w");
    expect(await h.prompt(s, text("go"), h.emit)).toEqual({ stopReason: "max_turn_requests" });
    expect(h.shell.requests).toHaveLength(3);
    expect(h.text()).toContain("[turn stopped: the same tool call kept repeating]");
    const outputs = s.history.flatMap((m) => (m.role === "tool" ? [m.output] : []));
    expect(outputs[3]).toMatch(/^\[loop detected/);
  });

  it("ends max_turn_requests at turn.maxSteps", async () => {
    const h = harness({
      replies: Array.from({ length: 5 }, (_, i) => toolReply([{ name: "bash", input: { command: `echo ${i}` } }])),
      settings: { maxSteps: 3 },
    });
    const s = await h.start("/w");
    expect(await h.prompt(s, text("go"), h.emit)).toEqual({ stopReason: "max_turn_requests" });
    expect(h.model.requests).toHaveLength(3);
  });

  it("fails with the model's one-line error, removing a question with no answer at all", async () => {
    const h = harness({ replies: [errorReply({ kind: "server", message: "model server error 500: boom" })] });
    const s = await h.start("/w");
    expect(await h.prompt(s, text("hi"), h.emit)).toEqual({ stopReason: "failed", error: "model server error 500: boom" });
    expect(s.history).toHaveLength(1);
    // One line for the failed turn: the spec's, with why after it.
    expect(h.logs.filter((line) => line.startsWith("turn "))).toEqual([
      "turn done: 0 command(s) · 0 file op(s) · 0 skill(s) · failed: model server error 500: boom",
    ]);
  });

  it("keeps partial text after a failure mid-stream", async () => {
    const h = harness({ replies: [errorReply({ kind: "network", message: "dropped" }, [{ type: "text", text: "Part" }])] });
    const s = await h.start("/w");
    await h.prompt(s, text("hi"), h.emit);
    expect(s.history.slice(1)).toEqual([
      { role: "user", text: "hi" },
      { role: "assistant", text: "Part", toolCalls: [] },
    ]);
  });

  it("cancels a streaming turn: stopReason cancelled, partial text kept, the next prompt works", async () => {
    const h = harness({ replies: [hangingReply([{ type: "text", text: "thinking" }]), textReply("next")] });
    const s = await h.start("/w");
    const running = h.prompt(s, text("hi"), h.emit);
    await new Promise((r) => setTimeout(r, 10));
    s.cancel();
    expect(await running).toEqual({ stopReason: "cancelled" });
    expect(s.history.at(-1)).toEqual({ role: "assistant", text: "thinking", toolCalls: [] });
    expect(await h.prompt(s, text("again"), h.emit)).toEqual({ stopReason: "end_turn" });
  });

  it("cancels while permission is asked: the tool does not run and the turn ends cancelled", async () => {
    let release!: () => void;
    const h = harness({
      replies: [toolReply([{ name: "bash", input: { command: "ls" } }])],
      gate: (r) =>
        new Promise((resolve) => {
          release = () => resolve("allow");
          r.signal.addEventListener("abort", () => resolve("reject"));
        }),
    });
    const s = await h.start("/w");
    const running = h.prompt(s, text("hi"), h.emit);
    await new Promise((r) => setTimeout(r, 10));
    s.cancel();
    expect(await running).toEqual({ stopReason: "cancelled" });
    expect(h.shell.requests).toEqual([]);
    void release;
  });

  it("serialises turns process-wide and cancels a queued one without running it", async () => {
    const h = harness({ replies: [hangingReply(), textReply("b")] });
    const a = await h.start("/w");
    const b = await h.start("/w");
    const first = h.prompt(a, text("a"), h.emit);
    const second = h.prompt(b, text("b"), h.emit);
    await new Promise((r) => setTimeout(r, 10));
    expect(h.model.requests).toHaveLength(1);
    b.cancel();
    expect(await second).toEqual({ stopReason: "cancelled" });
    a.cancel();
    expect(await first).toEqual({ stopReason: "cancelled" });
    expect(h.model.requests).toHaveLength(1);
    expect(b.history).toHaveLength(1);
  });
});
