/** Sessions kept by a store: load while a turn runs, replay, the call-id counter. */
import { describe, expect, it } from "vitest";
import { flattenPrompt } from "../src/prompt/flatten-prompt.js";
import { hangingReply, inMemoryFileSystem, textReply, toolReply } from "../src/testing/index.js";
import { harness } from "./harness.js";

const say = (t: string) => [{ type: "text" as const, text: t }];

describe("session/load", () => {
  it("cancels a running turn of that session, waits for its save, and is never overwritten by it", async () => {
    const h = harness({ replies: [textReply("a1"), hangingReply([{ type: "text", text: "partial" }])], sessions: true });
    const s = await h.start("/w");
    await h.prompt(s, say("q1"), h.emit);
    const running = h.prompt(s, say("q2"), h.emit);
    await new Promise((r) => setTimeout(r, 10));
    const loaded = await h.agent.loadSession("/w", s.id);
    expect(await running).toEqual({ stopReason: "cancelled" });
    const session = loaded._unsafeUnwrap().session;
    expect(session).not.toBe(s);
    expect(session.history.slice(1).map((m) => (m.role === "assistant" || m.role === "user" ? m.text : m.role))).toEqual(["q1", "a1", "q2", "partial"]);
    expect(loaded._unsafeUnwrap().replay).toHaveLength(4);
    const saved = [...h.store!.saved.values()][0]!;
    expect(saved.history).toHaveLength(5);
  });

  it("replays file locations as the live tool gives them, ~ included", async () => {
    const h = harness({
      replies: [toolReply([{ name: "read_file", input: { path: "~/notes.md" } }]), textReply("ok")],
      files: { "/home/u/notes.md": "n" },
      sessions: true,
      settings: { home: "/home/u" },
    });
    const s = await h.start("/w");
    await h.prompt(s, say("read"), h.emit);
    const replay = (await h.agent.loadSession("/w", s.id))._unsafeUnwrap().replay;
    const call = replay.find((i) => i.type === "tool");
    expect(call?.type === "tool" && call.call.locations).toEqual(["/home/u/notes.md"]);
    expect(call?.type === "tool" && call.result?.output).toBe("n");
  });

  it("moves the call-id counter past the loaded history", async () => {
    const h = harness({
      replies: [
        toolReply([{ name: "bash", input: { command: "ls" } }]),
        textReply("ok"),
        toolReply([{ name: "bash", input: { command: "pwd" } }]),
        textReply("ok"),
      ],
      sessions: true,
    });
    const s = await h.start("/w");
    await h.prompt(s, say("one"), h.emit);
    h.store!.saved.forEach((v, k) => h.store!.saved.set(k, { ...v, history: JSON.parse(JSON.stringify(v.history).replace("call_1", "call_41")) }));
    const loaded = h.handle((await h.agent.loadSession("/w", s.id))._unsafeUnwrap().session);
    await h.prompt(loaded, say("two"), h.emit);
    expect(loaded.history.flatMap((m) => (m.role === "assistant" ? m.toolCalls.map((c) => c.id) : []))).toEqual(["call_41", "call_42"]);
  });
});

describe("@path mentions", () => {
  it("attach relative paths only under the cwd; absolute and ~ paths anywhere", async () => {
    const fs = inMemoryFileSystem({ "/w/a.txt": "a", "/etc/passwd": "x", "/home/u/n.md": "n" });
    const flat = await flattenPrompt([{ type: "text", text: "@a.txt @../etc/passwd @/etc/passwd @~/n.md" }], "/w", fs, "/home/u");
    expect(flat.attached).toEqual(["a.txt", "/etc/passwd", "~/n.md"]);
  });
});
