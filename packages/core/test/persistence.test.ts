/**
 * Sessions kept as the turn goes: saved after each model step and tool call, a tool call shown done only
 * once its result is saved, a failed save told to the user once at the end of the turn, a prompt refused
 * before it runs when another process holds or changed the session, and everything released at close.
 */
import { describe, expect, it } from "vitest";
import type { TurnEvent } from "../src/turn/events.js";
import { inMemorySessionStore, textReply, toolReply } from "../src/testing/index.js";
import { harness } from "./harness.js";

const say = (t: string) => [{ type: "text" as const, text: t }];
const twoCalls = () => [
  toolReply([{ name: "bash", input: { command: "echo 1" } }]),
  toolReply([{ name: "bash", input: { command: "echo 2" } }]),
  textReply("done"),
];
const savedHistory = (h: ReturnType<typeof harness>) => [...h.store!.saved.values()][0]!.history;

describe("saving as the turn goes", () => {
  it("saves after each model step and each tool call, adding only what is new", async () => {
    const seen: number[] = [];
    const h = harness({ replies: twoCalls(), sessions: true, shell: () => ({ output: "ok" }) });
    const s = await h.start("/w");
    await h.prompt(s, say("go"), (e) => {
      if (e.type === "tool-running") seen.push(savedHistory(h).length);
    });
    expect(h.store!.writes).toEqual(["rewrite", "append", "append", "append", "append", "append", "none"]);
    expect(seen).toEqual([3, 5]);
    expect(savedHistory(h)).toEqual(s.history);
  });

  it("shows a tool call done only once its result is saved", async () => {
    const h = harness({ replies: twoCalls(), sessions: true, shell: () => ({ output: "ok" }) });
    const s = await h.start("/w");
    const savedAtDone: boolean[] = [];
    await h.prompt(s, say("go"), (e) => {
      if (e.type === "tool-done") savedAtDone.push(savedHistory(h).some((m) => m.role === "tool" && m.callId === e.call.id));
    });
    expect(savedAtDone).toEqual([true, true]);
  });

  it("keeps the events in order: the held result comes out before anything after it", async () => {
    const h = harness({ replies: twoCalls(), sessions: true });
    const s = await h.start("/w");
    const types: TurnEvent["type"][] = [];
    await h.prompt(s, say("go"), (e) => void types.push(e.type));
    expect(types.filter((t) => t !== "usage" && t !== "title")).toEqual([
      "tool-pending",
      "tool-running",
      "tool-done",
      "tool-pending",
      "tool-running",
      "tool-done",
      "text",
    ]);
  });
});

describe("a save that fails", () => {
  it("is told once, at the end of the turn, and logged once; the history stays; the next save writes it all", async () => {
    const h = harness({ replies: [...twoCalls(), textReply("second")], sessions: true });
    const s = await h.start("/w");
    h.store!.failWrites("cannot write /w/.mm/sessions/x.journal: ENOSPC");
    const events: TurnEvent[] = [];
    expect(await h.prompt(s, say("go"), (e) => void events.push(e))).toEqual({ stopReason: "end_turn" });
    const notices = events.filter((e) => e.type === "notice");
    expect(notices).toEqual([{ type: "notice", text: "\n[session not saved: cannot write /w/.mm/sessions/x.journal: ENOSPC]\n", severity: "error" }]);
    expect(events.at(-1)).toBe(notices[0]);
    expect(h.logs.filter((l) => l.includes("could not save"))).toEqual([`session ${s.id}: could not save: cannot write /w/.mm/sessions/x.journal: ENOSPC`]);
    expect(s.history).toHaveLength(7);
    expect(savedHistory(h)).toHaveLength(1);
    h.store!.failWrites(undefined);
    const after: TurnEvent[] = [];
    await h.prompt(s, say("again"), (e) => void after.push(e));
    expect(after.filter((e) => e.type === "notice")).toEqual([]);
    expect(savedHistory(h)).toEqual(s.history);
    expect(h.logs).toContain(`session ${s.id}: saved again`);
  });

  it("is told at the end of each turn while it keeps failing", async () => {
    const h = harness({ replies: [textReply("a"), textReply("b")], sessions: true });
    const s = await h.start("/w");
    h.store!.failWrites("EROFS");
    for (const prompt of ["one", "two"]) {
      const events: TurnEvent[] = [];
      await h.prompt(s, say(prompt), (e) => void events.push(e));
      expect(events.filter((e) => e.type === "notice")).toHaveLength(1);
    }
    expect(h.logs.filter((l) => l.includes("could not save"))).toHaveLength(1);
  });

  it("/new that cannot keep the conversation so far resets nothing and says why", async () => {
    const h = harness({ replies: [textReply("a")], sessions: true });
    const s = await h.start("/w");
    await h.prompt(s, say("one"), h.emit);
    h.store!.failWrites("ENOSPC");
    const events: TurnEvent[] = [];
    await h.prompt(s, say("/new"), (e) => void events.push(e));
    expect(events).toEqual([{ type: "notice", text: "[new: failed, history kept: the conversation so far could not be saved: ENOSPC]" }]);
    expect(s.history).toHaveLength(3);
  });

  it("/compact says so too while the session is not on disk", async () => {
    const h = harness({ replies: [textReply("a")], sessions: true });
    const s = await h.start("/w");
    h.store!.failWrites("EIO");
    await h.prompt(s, say("one"), h.emit);
    const events: TurnEvent[] = [];
    await h.prompt(s, say("/compact"), (e) => void events.push(e));
    expect(events.map((e) => e.type)).toEqual(["compaction", "usage", "notice"]);
    h.store!.failWrites(undefined);
    const healed: TurnEvent[] = [];
    await h.prompt(s, say("/compact"), (e) => void healed.push(e));
    expect(healed.map((e) => e.type)).toEqual(["compaction", "usage"]);
  });
});

describe("a session another process holds", () => {
  it("refuses the prompt before anything runs, naming the holder; the holder's turns are kept", async () => {
    const store = inMemorySessionStore();
    const h = harness({ replies: [textReply("mine")], store });
    const s = await h.start("/w");
    store.die();
    const other = store.otherProcess();
    expect((await other.load("/w", s.id)).isOk()).toBe(true);
    const refused = await h.agent.prompt(s.id, say("hi"), h.emit);
    expect(refused._unsafeUnwrapErr()).toEqual({ kind: "session-refused", sessionId: s.id, reason: "session is open in another mm process, pid 2" });
    expect(h.model.requests).toEqual([]);
    expect(s.history).toHaveLength(1);
    expect(h.logs).toContain(`session ${s.id}: prompt refused: session is open in another mm process, pid 2`);
  });

  it("refuses a prompt on a session changed by another process meanwhile, until it is loaded again", async () => {
    const store = inMemorySessionStore();
    const h = harness({ replies: [textReply("after reload")], store });
    const s = await h.start("/w");
    store.die();
    const other = store.otherProcess();
    const theirs = (await other.load("/w", s.id))._unsafeUnwrap();
    await other.save({ ...theirs, history: [...theirs.history, { role: "user", text: "from the other" }] });
    await other.release("/w", s.id);
    const refused = await h.agent.prompt(s.id, say("hi"), h.emit);
    expect(refused._unsafeUnwrapErr().kind).toBe("session-refused");
    expect(h.model.requests).toEqual([]);
    const loaded = h.handle((await h.agent.loadSession("/w", s.id))._unsafeUnwrap().session);
    expect(await h.prompt(loaded, say("hi"), h.emit)).toEqual({ stopReason: "end_turn" });
    expect(
      savedHistory(h)
        .map((m) => ("text" in m ? m.text : m.role))
        .slice(1),
    ).toEqual(["from the other", "hi", "after reload"]);
  });

  it("is free for others once the agent is closed", async () => {
    const store = inMemorySessionStore();
    const h = harness({ replies: [textReply("a")], store });
    const s = await h.start("/w");
    await h.prompt(s, say("one"), h.emit);
    const other = store.otherProcess();
    expect((await other.load("/w", s.id))._unsafeUnwrapErr().kind).toBe("busy");
    await h.agent.close();
    expect((await other.load("/w", s.id))._unsafeUnwrap().history).toHaveLength(3);
    expect(h.agent.session(s.id)).toBeUndefined();
  });
});
