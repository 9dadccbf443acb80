/** /compact and automatic compaction, driven through promptSession with a scripted model. */
import { describe, expect, it } from "vitest";
import { SUMMARY_SYSTEM_PROMPT } from "../src/compaction/summary-request.js";
import { errorReply, textReply, toolReply } from "../src/testing/index.js";
import { estimateTokens } from "../src/history/token-estimate.js";
import { harness } from "./harness.js";

const say = (t: string) => [{ type: "text" as const, text: t }];

const threeTurns = async (h: ReturnType<typeof harness>) => {
  const s = await h.start("/w");
  for (const q of ["one", "two", "three"]) await h.prompt(s, say(q), h.emit);
  return s;
};

describe("/compact", () => {
  it("replaces all but the last turns with one summary, says so in one chunk, then how full the context is", async () => {
    const h = harness({
      replies: [textReply("a1"), textReply("a2"), textReply("a3", { inputTokens: 5000 }), textReply("## Goal\nsummary text")],
      sessions: true,
    });
    const s = await threeTurns(h);
    expect(s.lastInputTokens).toBe(5000);
    h.events.length = 0;
    expect(await h.prompt(s, say("/compact"), h.emit)).toEqual({ stopReason: "end_turn" });
    expect(h.events.map((e) => e.type)).toEqual(["compaction", "usage"]);
    expect(h.events[1]).toEqual({ type: "usage", used: estimateTokens(s.history), size: 128000 });
    expect(h.text()).toMatch(/^🗜️ compressed 2 messages → 1 summary \+ 4 kept \(\d+ tokens, \d+\.\ds\)$/);
    expect(s.history.slice(1)).toEqual([
      { role: "user", text: "## Goal\nsummary text", summary: true },
      { role: "user", text: "two" },
      { role: "assistant", text: "a2", toolCalls: [] },
      { role: "user", text: "three" },
      { role: "assistant", text: "a3", toolCalls: [] },
    ]);
    expect(s.lastInputTokens).toBeUndefined();
    const summaryRequest = h.model.requests.at(-1)!;
    expect(summaryRequest.system).toBe(SUMMARY_SYSTEM_PROMPT);
    expect(summaryRequest.tools).toEqual([]);
    expect(summaryRequest.messages[0]!.role === "user" && summaryRequest.messages[0]!.text).toContain("USER: one");
    expect(h.logs.at(-1)).toMatch(/^session \S+: \/compact — 🗜️ compressed 2 messages/);
    expect([...h.store!.saved.values()][0]!.history).toEqual(s.history);
  });

  it("has nothing to compact when no turn is older than the kept ones", async () => {
    const h = harness({ replies: [textReply("a1", { inputTokens: 5000 })] });
    const s = await h.start("/w");
    await h.prompt(s, say("one"), h.emit);
    h.events.length = 0;
    await h.prompt(s, say("/compact"), h.emit);
    expect(h.text()).toBe("🗜️ nothing to compact: 2 message(s), no turn older than the last 2");
    expect(h.events.at(-1)).toEqual({ type: "usage", used: 5000, size: 128000 });
    expect(s.history).toHaveLength(3);
    expect(s.lastInputTokens).toBe(5000);
    expect(h.model.requests).toHaveLength(1);
  });

  it("keeps the history when the summary request fails", async () => {
    const h = harness({
      replies: [
        textReply("a1"),
        textReply("a2"),
        textReply("a3", { inputTokens: 5000 }),
        errorReply({ kind: "server", message: "model server error 503: busy" }),
      ],
    });
    const s = await threeTurns(h);
    const before = s.history;
    h.events.length = 0;
    expect(await h.prompt(s, say("/compact"), h.emit)).toEqual({ stopReason: "end_turn" });
    expect(h.text()).toBe("[compact: failed, history kept: model server error 503: busy]");
    expect(s.history).toBe(before);
    expect(s.lastInputTokens).toBe(5000);
  });

  it("waits for a running turn", async () => {
    let release!: () => void;
    const gate = new Promise<"allow">((r) => (release = () => r("allow")));
    const h = harness({
      replies: [textReply("a1"), textReply("a2"), toolReply([{ name: "bash", input: { command: "ls" } }]), textReply("a3"), textReply("summary")],
      gate: () => gate,
    });
    const s = await h.start("/w");
    for (const q of ["one", "two"]) await h.prompt(s, say(q), h.emit);
    const turn = h.prompt(s, say("three"), h.emit);
    const compact = h.prompt(s, say("/compact"), h.emit);
    await new Promise((r) => setTimeout(r, 10));
    expect(h.model.requests).toHaveLength(3);
    release();
    await Promise.all([turn, compact]);
    expect(h.model.requests).toHaveLength(5);
    expect(s.history[1]).toMatchObject({ summary: true, text: "summary" });
  });
});

describe("automatic compaction", () => {
  it("compresses in the middle of a tool-heavy turn once the threshold is reached, and goes on", async () => {
    const usage = (inputTokens: number) => ({ inputTokens, outputTokens: 10 });
    const h = harness({
      replies: [
        textReply("a1", usage(100)),
        textReply("a2", usage(200)),
        toolReply([{ name: "bash", input: { command: "step 1" } }], "", usage(500)),
        toolReply([{ name: "bash", input: { command: "step 2" } }], "", usage(1500)),
        textReply("the summary"),
        toolReply([{ name: "bash", input: { command: "step 3" } }], "", usage(300)),
        textReply("finished", usage(400)),
      ],
      settings: { compactThreshold: 1000, keepLastTurns: 1 },
    });
    const s = await h.start("/w");
    await h.prompt(s, say("one"), h.emit);
    await h.prompt(s, say("two"), h.emit);
    h.events.length = 0;
    expect(await h.prompt(s, say("three"), h.emit)).toEqual({ stopReason: "end_turn" });
    const compaction = h.events.find((e) => e.type === "compaction");
    expect(compaction).toMatchObject({ summary: "the summary" });
    expect(compaction!.type === "compaction" && compaction!.line).toMatch(/^🗜️ compressed 4 messages → 1 summary \+ 5 kept/);
    expect(h.shell.requests.map((r) => r.command)).toEqual(["step 1", "step 2", "step 3"]);
    const afterCompaction = h.model.requests[5]!;
    expect(afterCompaction.messages[0]).toEqual({ role: "user", text: "the summary", summary: true });
    expect(afterCompaction.messages[1]).toEqual({ role: "user", text: "three" });
    expect(s.history.at(-1)).toEqual({ role: "assistant", text: "finished", toolCalls: [] });
    expect(s.lastInputTokens).toBe(400);
  });

  it("keeps the history and the turn when the automatic summary fails", async () => {
    const h = harness({
      replies: [
        textReply("a1", { inputTokens: 2000 }),
        errorReply({ kind: "network", message: "cannot reach the model server" }),
        textReply("still here", { inputTokens: 2100 }),
      ],
      settings: { compactThreshold: 1000, keepLastTurns: 0 },
    });
    const s = await h.start("/w");
    await h.prompt(s, say("one"), h.emit);
    h.events.length = 0;
    expect(await h.prompt(s, say("two"), h.emit)).toEqual({ stopReason: "end_turn" });
    expect(h.text()).toBe("[compact: failed, history kept: cannot reach the model server]still here");
    expect(s.history.slice(1).map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("never compacts away the turn in progress, even with keepLastTurns 0, and keeps it after a failure", async () => {
    const h = harness({
      replies: [textReply("a1", { inputTokens: 2000 }), textReply("the summary"), errorReply({ kind: "server", message: "model server error 500: boom" })],
      settings: { compactThreshold: 1000, keepLastTurns: 0 },
    });
    const s = await h.start("/w");
    await h.prompt(s, say("one"), h.emit);
    expect(await h.prompt(s, say("two"), h.emit)).toEqual({ stopReason: "failed", error: "model server error 500: boom" });
    expect(s.history.slice(1)).toEqual([{ role: "user", text: "the summary", summary: true }]);
  });

  it("a tool that throws fails its call; the turn and the history go on", async () => {
    const h = harness({
      replies: [toolReply([{ name: "bash", input: { command: "boom" } }]), textReply("recovered")],
      shell: () => {
        throw new Error("adapter broke its contract");
      },
    });
    const s = await h.start("/w");
    expect(await h.prompt(s, say("go"), h.emit)).toEqual({ stopReason: "end_turn" });
    expect(s.history.find((m) => m.role === "tool")).toMatchObject({ status: "failed", output: "[bash failed unexpectedly: adapter broke its contract]" });
  });
});
