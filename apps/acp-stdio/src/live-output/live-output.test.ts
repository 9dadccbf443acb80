import type * as acp from "@agentclientprotocol/sdk";
import type { ToolCallView } from "@mm/core";
import { describe, expect, it } from "vitest";
import { liveOutput, type LiveClock } from "./live-output.js";

const call: ToolCallView = {
  id: "call_7",
  name: "bash",
  title: "bash: make",
  kind: "execute",
  input: { command: "make" },
  locations: [],
  diffs: [],
  streamsOutput: true,
};

/** A clock moved by hand, running what falls due. */
const manualTime = () => {
  let now = 0;
  let due: { at: number; run: () => void }[] = [];
  const clock: LiveClock = {
    now: () => now,
    later: (run, ms) => {
      const entry = { at: now + ms, run };
      due.push(entry);
      return () => void (due = due.filter((d) => d !== entry));
    },
  };
  const advance = (ms: number): void => {
    now += ms;
    const ready = due.filter((d) => d.at <= now);
    due = due.filter((d) => d.at > now);
    for (const d of ready) d.run();
  };
  return { clock, advance, pending: () => due.length };
};

const setup = (terminal: boolean, maxBytes = 1000) => {
  const sent: { at: number; update: acp.SessionUpdate }[] = [];
  const time = manualTime();
  const live = liveOutput({ terminal, maxBytes, clock: time.clock, send: (update) => sent.push({ at: time.clock.now(), update }) });
  const texts = () => sent.map(({ update }) => (update as { content?: { content: { text: string } }[] }).content?.[0]?.content.text);
  const data = () => sent.map(({ update }) => (update as unknown as { _meta?: { terminal_output: { data: string } } })._meta?.terminal_output.data);
  return { sent, live, texts, data, ...time };
};

describe("liveOutput, for a client without a terminal", () => {
  it("sends the first text at once, then the output so far at most every 100 ms", () => {
    const t = setup(false);
    t.live.output(call, "a\n");
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]!.update).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: "call_7",
      status: "in_progress",
      content: [{ type: "content", content: { type: "text", text: "a\n" } }],
    });
    t.advance(30);
    t.live.output(call, "b\n");
    t.advance(30);
    t.live.output(call, "c\n");
    expect(t.sent).toHaveLength(1);
    t.advance(40);
    expect(t.texts()).toEqual(["a\n", "a\nb\nc\n"]);
    expect(t.sent.map((s) => s.at)).toEqual([0, 100]);
    t.advance(500);
    t.live.output(call, "d\n");
    expect(t.texts()).toEqual(["a\n", "a\nb\nc\n", "a\nb\nc\nd\n"]);
    expect(t.sent.at(-1)!.at).toBe(600);
  });

  it("caps the text like the final output, and sends nothing once the call is done", () => {
    const t = setup(false, 10);
    t.live.output(call, "0123456789abcdef");
    expect(t.texts()).toEqual(["01234\n[… 6 bytes cut …]\nbcdef"]);
    t.live.output(call, "more");
    t.live.done(call);
    t.advance(1000);
    expect(t.sent).toHaveLength(1);
    expect(t.pending()).toBe(0);
  });
});

describe("liveOutput, for a client that wants a terminal", () => {
  it("sends the new text only, and what is left when the call ends", () => {
    const t = setup(true);
    t.live.output(call, "a\n");
    t.live.output(call, "b\n");
    t.advance(100);
    t.live.output(call, "c\n");
    t.advance(10);
    t.live.done(call);
    expect(t.data()).toEqual(["a\n", "b\n", "c\n"]);
    expect(t.sent[0]!.update).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: "call_7",
      _meta: { terminal_output: { terminal_id: "call_7", data: "a\n" } },
    });
    expect(t.sent.map((s) => s.at)).toEqual([0, 100, 110]);
  });

  it("shows a call that does not stream output as text even then", () => {
    const t = setup(true);
    t.live.output({ ...call, streamsOutput: false }, "x");
    expect(t.texts()).toEqual(["x"]);
  });
});
