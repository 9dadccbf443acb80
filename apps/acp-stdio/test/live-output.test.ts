/**
 * Live output of a running bash call, truthful replays, no editor read of a file that is not there,
 * and the context meter after /new and /compact — through the SDK's own client over in-memory streams.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { textReply, toolReply, type ShellScript } from "@mm/core/testing";
import { inMemoryAcp } from "./in-memory-acp.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A command printing a line every 300 ms for 2 s (seven lines), then exiting 0. */
const everyThirdOfASecond: ShellScript = async (_request, write) => {
  for (let i = 1; i <= 7; i++) {
    write(`line ${i}\n`);
    await sleep(300);
  }
  return {};
};

const callUpdates = (updates: acp.SessionNotification[]) =>
  updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");

const prompting = async (t: ReturnType<typeof inMemoryAcp>, capabilities: acp.ClientCapabilities = {}) =>
  t.run(async (agent) => {
    const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
    return agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run it" }] });
  }, capabilities);

describe("a running bash call", () => {
  it("shows its output growing in in_progress updates before it completes", async () => {
    const t = inMemoryAcp({ replies: [toolReply([{ name: "bash", input: { command: "slow" } }]), textReply("done")], shell: everyThirdOfASecond });
    expect(await prompting(t)).toEqual({ stopReason: "end_turn" });
    const calls = callUpdates(t.updates);
    const live = calls.filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "in_progress" && u.content !== undefined);
    const texts = live.map((u) => (u.content![0] as { content: { text: string } }).content.text);
    expect(texts.length).toBeGreaterThanOrEqual(3);
    texts.forEach((text, i) => {
      expect(text).toMatch(/^(line \d\n)+$/);
      if (i > 0) expect(text.startsWith(texts[i - 1]!) && text.length > texts[i - 1]!.length).toBe(true);
    });
    expect(calls.at(-1)).toMatchObject({
      status: "completed",
      rawOutput: { output: `${[1, 2, 3, 4, 5, 6, 7].map((i) => `line ${i}\n`).join("")}[exit code: 0]` },
    });
    expect(calls.indexOf(live[0]!)).toBe(2);
    expect(t.problems).toEqual([]);
  });

  it("is a terminal for a client that opts in: terminal_info, its output in order, then the exit", async () => {
    const t = inMemoryAcp({
      replies: [toolReply([{ name: "bash", input: { command: "slow; exit 3" } }]), textReply("done")],
      shell: async (r, w) => ({ ...(await everyThirdOfASecond(r, w)), exitCode: 3 }),
    });
    await prompting(t, { _meta: { terminal_output: true } });
    const calls = callUpdates(t.updates);
    expect(calls[0]).toEqual({
      sessionUpdate: "tool_call",
      toolCallId: "call_1",
      title: "bash: slow; exit 3",
      kind: "execute",
      status: "pending",
      rawInput: { command: "slow; exit 3" },
      locations: [],
      content: [{ type: "terminal", terminalId: "call_1" }],
      _meta: { terminal_info: { terminal_id: "call_1", cwd: "/w" } },
    });
    expect(t.permissions[0]!.toolCall.content).toEqual([{ type: "terminal", terminalId: "call_1" }]);
    expect(calls[1]).toEqual({ sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "in_progress" });
    const outputs = calls.slice(2, -1);
    expect(outputs.length).toBeGreaterThanOrEqual(3);
    expect(outputs.every((u) => u.sessionUpdate === "tool_call_update" && u.status === undefined && u.content === undefined)).toBe(true);
    const data = outputs.map((u) => (u._meta as { terminal_output: { terminal_id: string; data: string } }).terminal_output);
    expect(data.every((d) => d.terminal_id === "call_1")).toBe(true);
    expect(data.map((d) => d.data).join("")).toBe([1, 2, 3, 4, 5, 6, 7].map((i) => `line ${i}\n`).join(""));
    expect(calls.at(-1)).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: "call_1",
      status: "failed",
      content: [{ type: "terminal", terminalId: "call_1" }],
      rawOutput: { output: `${[1, 2, 3, 4, 5, 6, 7].map((i) => `line ${i}\n`).join("")}[exit code: 3]` },
      locations: [],
      _meta: { terminal_exit: { terminal_id: "call_1", exit_code: 3, signal: null } },
    });
    expect(t.problems).toEqual([]);
  });

  it("sends no output update for a silent command, and a rejected call shown as a terminal ends with its reason", async () => {
    const t = inMemoryAcp({
      replies: [
        toolReply([
          { name: "bash", input: { command: "true" } },
          { name: "bash", input: { command: "rm -rf /" } },
        ]),
        textReply("done"),
      ],
      permission: (request) => (request.toolCall.title === "bash: true" ? "allow" : "reject"),
    });
    await prompting(t, { _meta: { terminal_output: true } });
    const calls = callUpdates(t.updates);
    expect(calls.map((u) => `${u.toolCallId} ${u.sessionUpdate} ${u.status ?? ""}`)).toEqual([
      "call_1 tool_call pending",
      "call_1 tool_call_update in_progress",
      "call_1 tool_call_update completed",
      "call_2 tool_call pending",
      "call_2 tool_call_update failed",
    ]);
    expect(calls.at(-1)).toMatchObject({
      content: [{ type: "content", content: { type: "text", text: "[command rejected by the user]" } }],
      _meta: { terminal_exit: { terminal_id: "call_2", exit_code: null, signal: null } },
    });
    expect(t.problems).toEqual([]);
  });

  it("stores the final output only", async () => {
    const t = inMemoryAcp({
      replies: [toolReply([{ name: "bash", input: { command: "slow" } }]), textReply("done")],
      shell: everyThirdOfASecond,
      config: (c) => ({ ...c, sessions: { ...c.sessions, enabled: true } }),
    });
    await prompting(t);
    const saved = [...(t.store as unknown as { saved: Map<string, { history: { role: string; output?: string }[] }> }).saved.values()][0]!;
    expect(saved.history.filter((m) => m.role === "tool").map((m) => m.output)).toEqual([
      `${[1, 2, 3, 4, 5, 6, 7].map((i) => `line ${i}\n`).join("")}[exit code: 0]`,
    ]);
  });
});

describe("session/load", () => {
  it("replays a rejected, a cancelled and a completed call as failed, failed, completed", async () => {
    let cancel: (() => Promise<void>) | undefined;
    const t = inMemoryAcp({
      replies: [
        toolReply([{ name: "bash", input: { command: "rm -rf /" } }]),
        textReply("ok, not that"),
        toolReply([{ name: "bash", input: { command: "sleep 30" } }]),
        toolReply([{ name: "bash", input: { command: "echo hi" } }]),
        textReply("said hi"),
      ],
      shell: (request, write) => {
        if (request.command !== "sleep 30") return { output: "hi\n" };
        write("sleeping\n");
        void cancel?.();
        return new Promise((resolve) =>
          request.signal.addEventListener("abort", () => resolve({ output: "sleeping\n", exitCode: null, signal: "SIGTERM", cancelled: true })),
        );
      },
      permission: (request) => (request.toolCall.title === "bash: rm -rf /" ? "reject" : "allow"),
      config: (c) => ({ ...c, sessions: { ...c.sessions, enabled: true } }),
    });
    const replay = await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      cancel = () => agent.notify("session/cancel", { sessionId });
      const say = (text: string) => agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
      expect(await say("clean up")).toEqual({ stopReason: "end_turn" });
      expect(await say("wait")).toEqual({ stopReason: "cancelled" });
      expect(await say("greet")).toEqual({ stopReason: "end_turn" });
      const before = t.updates.length;
      await agent.request("session/load", { sessionId, cwd: "/w", mcpServers: [] });
      return t.updates.slice(before).map((u) => u.update);
    });
    const calls = replay.filter((u) => u.sessionUpdate === "tool_call");
    expect(calls.map((u) => [u.title, u.status])).toEqual([
      ["bash: rm -rf /", "failed"],
      ["bash: sleep 30", "failed"],
      ["bash: echo hi", "completed"],
    ]);
    expect(calls[0]).toMatchObject({
      content: [{ type: "content", content: { type: "text", text: "[command rejected by the user]" } }],
      rawOutput: { output: "[command rejected by the user]" },
    });
    expect(calls[1]).toMatchObject({ rawOutput: { output: "sleeping\n[cancelled]" } });
    expect(calls[2]).toMatchObject({ rawOutput: { output: "hi\n[exit code: 0]" } });
    expect(t.problems).toEqual([]);
  });
});

describe("the editor's file system", () => {
  it("is not asked to read a file that does not exist yet; the new file is written through it", async () => {
    const editorFiles = new Map<string, string>([["/w/old.txt", "unsaved\n"]]);
    const t = inMemoryAcp({
      files: { "/w/old.txt": "on disk\n" },
      editorFiles,
      replies: [
        toolReply([
          { name: "write_file", input: { path: "new.txt", content: "fresh\n" } },
          { name: "read_file", input: { path: "old.txt" } },
        ]),
        textReply("written"),
      ],
    });
    await prompting(t, { fs: { readTextFile: true, writeTextFile: true } });
    const fsRequests = t.wire
      .filter((w) => w.from === "agent" && w.message.method?.startsWith("fs/"))
      .map((w) => [w.message.method, (w.message.params as { path: string }).path]);
    expect(fsRequests).toEqual([
      ["fs/write_text_file", "/w/new.txt"],
      ["fs/read_text_file", "/w/old.txt"],
    ]);
    expect(editorFiles.get("/w/new.txt")).toBe("fresh\n");
    const pending = callUpdates(t.updates).find((u) => u.sessionUpdate === "tool_call");
    expect(pending?.content).toEqual([{ type: "diff", path: "/w/new.txt", oldText: null, newText: "fresh\n" }]);
    const read = callUpdates(t.updates)
      .filter((u) => u.status === "completed")
      .at(-1);
    expect(read?.rawOutput).toEqual({ output: "unsaved\n" });
    expect(t.problems).toEqual([]);
  });
});

describe("the context meter", () => {
  it("gets a usage_update right after /compact and after /new", async () => {
    const t = inMemoryAcp({ replies: [textReply("a1", { inputTokens: 4000 }), textReply("a2"), textReply("a3"), textReply("summary")] });
    const after = await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      const say = (text: string) => agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
      for (const q of ["one", "two", "three"]) await say(q);
      const updatesOf = async (command: string) => {
        const before = t.updates.length;
        await say(command);
        return t.updates.slice(before).map((u) => u.update.sessionUpdate);
      };
      return { compact: await updatesOf("/compact"), fresh: await updatesOf("/new") };
    });
    expect(after).toEqual({ compact: ["agent_message_chunk", "usage_update"], fresh: ["agent_message_chunk", "usage_update"] });
    const last = t.updates.at(-1)!.update as { used: number; size: number };
    expect(last.size).toBe(128_000);
    expect(last.used).toBeGreaterThan(0);
    expect(t.problems).toEqual([]);
  });
});
