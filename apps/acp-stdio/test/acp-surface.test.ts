/** The ACP surface of the spec, driven through the SDK's own client over in-memory streams. */
import { describe, expect, it } from "vitest";
import { errorReply, textReply, toolReply } from "@mm/core/testing";
import { inMemoryAcp } from "./in-memory-acp.js";

const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; data?: unknown; message: string };
  }
  throw new Error("expected an error");
};

describe("initialize and the methods without a handler", () => {
  it("answers the spec's values, {} to authenticate, method-not-found to the rest", async () => {
    const t = inMemoryAcp();
    await t.run(async (agent) => {
      expect(await agent.request("authenticate", { methodId: "x" })).toEqual({});
      for (const method of ["session/set_mode", "session/set_config_option", "session/list", "session/resume", "session/close", "logout", "session/load"]) {
        expect((await errorOf(agent.request(method, { sessionId: "x", cwd: "/w", mcpServers: [] }))).code).toBe(-32601);
      }
    });
    const init = t.wire.find((w) => w.from === "agent" && w.message.id !== undefined)!.message.result;
    expect(init).toEqual({
      protocolVersion: 1,
      agentCapabilities: {},
      agentInfo: { name: "bob", title: "Bob (bash-first agent)", version: "0.11.0" },
      authMethods: [],
    });
    expect(t.logs[0]).toBe("[acp] initialize: test-client 1.0, protocol version 1");
    expect(t.problems).toEqual([]);
  });

  it("advertises loadSession with sessions enabled", async () => {
    const t = inMemoryAcp({ config: (c) => ({ ...c, sessions: { ...c.sessions, enabled: true } }) });
    const result = await t.run((agent) => agent.request("initialize", { protocolVersion: 1 }));
    expect(result.agentCapabilities).toEqual({ loadSession: true });
  });
});

describe("session/new", () => {
  it("writes available_commands_update after the response, on the wire", async () => {
    const t = inMemoryAcp({ skills: [{ name: "greetings", description: "Greet somebody with a festive message." }] });
    const { sessionId } = await t.run(async (agent) => {
      const created = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      await new Promise((r) => setTimeout(r, 10));
      return created;
    });
    expect(sessionId).toMatch(/^\d{8}-\d{6}-[0-9a-f]{8}$/);
    const fromAgent = t.wire.filter((w) => w.from === "agent").map((w) => w.message);
    const responseAt = fromAgent.findIndex((m) => (m.result as { sessionId?: string } | undefined)?.sessionId === sessionId);
    const commandsAt = fromAgent.findIndex((m) => m.method === "session/update");
    expect(responseAt).toBeGreaterThan(0);
    expect(commandsAt).toBe(responseAt + 1);
    expect(t.updates[0]!.update).toEqual({
      sessionUpdate: "available_commands_update",
      availableCommands: [
        { name: "new", description: "Clear the history and start a new session" },
        { name: "compact", description: "Compress the history now, keeping the last turns" },
        { name: "greetings", description: "Greet somebody with a festive message.", input: { hint: "parameters, if this skill needs any" } },
      ],
    });
    expect(t.problems).toEqual([]);
  });
});

describe("session/prompt", () => {
  it("streams text chunks and ends end_turn", async () => {
    const t = inMemoryAcp({ replies: [textReply(["Hello", ", ", "world"])] });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expect(await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })).toEqual({ stopReason: "end_turn" });
      expect(t.textOf(sessionId)).toBe("Hello, world");
    });
    expect(t.logs).toContain("[acp] turn done: 0 command(s) · 0 file op(s) · 0 skill(s)");
    expect(t.problems).toEqual([]);
  });

  it("asks permission before bash and reports the call pending → in_progress → completed", async () => {
    const t = inMemoryAcp({ replies: [toolReply([{ name: "bash", input: { command: "echo hi" } }]), textReply("done")], shell: () => ({ output: "hi\n" }) });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
    });
    expect(t.permissions).toHaveLength(1);
    expect(t.permissions[0]!.options.map((o) => [o.optionId, o.kind])).toEqual([
      ["allow", "allow_once"],
      ["allow_always", "allow_always"],
      ["reject", "reject_once"],
    ]);
    expect(t.permissions[0]!.toolCall).toMatchObject({ toolCallId: "call_1", title: "bash: echo hi", kind: "execute" });
    const calls = t.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");
    expect(calls).toEqual([
      {
        sessionUpdate: "tool_call",
        toolCallId: "call_1",
        title: "bash: echo hi",
        kind: "execute",
        status: "pending",
        rawInput: { command: "echo hi" },
        locations: [],
        content: [],
      },
      { sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "in_progress" },
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "call_1",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "hi\n[exit code: 0]" } }],
        rawOutput: { output: "hi\n[exit code: 0]" },
        locations: [],
      },
    ]);
    expect(t.logs).toContain("[acp] turn done: 1 command(s) · 0 file op(s) · 0 skill(s)");
    expect(t.problems).toEqual([]);
  });

  it("shows the proposed diff of an edit in the pending call and in the permission request", async () => {
    const t = inMemoryAcp({
      files: { "/w/a.txt": "one\ntwo\n" },
      replies: [toolReply([{ name: "edit_file", input: { path: "a.txt", old_text: "two", new_text: "three" } }]), textReply("edited")],
    });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "edit" }] });
    });
    const diff = { type: "diff", path: "/w/a.txt", oldText: "one\ntwo\n", newText: "one\nthree\n" };
    expect(t.permissions[0]!.toolCall).toMatchObject({ title: "edit_file: a.txt", kind: "edit", locations: [{ path: "/w/a.txt" }], content: [diff] });
    const pending = t.updates.map((u) => u.update).find((u) => u.sessionUpdate === "tool_call");
    expect(pending).toMatchObject({ content: [diff], locations: [{ path: "/w/a.txt" }] });
    const done = t.updates
      .map((u) => u.update)
      .filter((u) => u.sessionUpdate === "tool_call_update")
      .at(-1);
    expect(done).toMatchObject({ status: "completed", content: [diff], rawOutput: { output: "edited /w/a.txt" } });
    expect(t.fs.files.get("/w/a.txt")).toBe("one\nthree\n");
    expect(t.problems).toEqual([]);
  });

  it("a rejected call ends failed and the model is told", async () => {
    const t = inMemoryAcp({ permission: "reject", replies: [toolReply([{ name: "write_file", input: { path: "x", content: "y" } }]), textReply("ok")] });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write" }] });
    });
    expect(t.fs.files.has("/w/x")).toBe(false);
    const done = t.updates
      .map((u) => u.update)
      .filter((u) => u.sessionUpdate === "tool_call_update")
      .at(-1);
    expect(done).toMatchObject({ status: "failed", rawOutput: { output: "[command rejected by the user]" } });
    expect(t.problems).toEqual([]);
  });

  it("a cancelled permission dialog is a rejection, and the turn goes on", async () => {
    const t = inMemoryAcp({ permission: "cancelled", replies: [toolReply([{ name: "bash", input: { command: "ls" } }]), textReply("fine")] });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expect(await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "x" }] })).toEqual({ stopReason: "end_turn" });
    });
    expect(t.shell.requests).toEqual([]);
  });

  it("answers invalid params for an unknown session, internal error for a failed model", async () => {
    const t = inMemoryAcp({ replies: [errorReply({ kind: "server", message: "model server error 500: boom" })] });
    await t.run(async (agent) => {
      const unknown = await errorOf(agent.request("session/prompt", { sessionId: "nope", prompt: [] }));
      expect(unknown.code).toBe(-32602);
      expect(unknown.data).toMatchObject({ sessionId: "nope" });
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      const failed = await errorOf(agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] }));
      expect(failed.code).toBe(-32603);
      expect(failed.data).toEqual({ error: "model server error 500: boom" });
    });
    expect(t.problems).toEqual([]);
  });

  it("flattens text, resource links and @path mentions into the user message", async () => {
    const t = inMemoryAcp({ files: { "/w/src/a.ts": "x", "/w/README.md": "r" } });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      await agent.request("session/prompt", {
        sessionId,
        prompt: [
          { type: "text", text: "look at @src and @README.md " },
          { type: "text", text: "and @missing.txt" },
          { type: "resource_link", uri: "file:///w/lib/b.ts", name: "b.ts" },
          { type: "image", data: "", mimeType: "image/png" },
        ],
      });
    });
    const last = t.model.requests[0]!.messages.at(-1);
    expect(last).toEqual({
      role: "user",
      text: "look at @src and @README.md and @missing.txt\n[attached file: /w/lib/b.ts]\n[attached directory: /w/src]\n[attached file: /w/README.md]",
    });
    expect(t.logs.filter((l) => l.includes("attached"))).toHaveLength(2);
  });

  it("/new forgets the history, keeping the session", async () => {
    const t = inMemoryAcp({ replies: [textReply("a")] });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
      expect(await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "  /new " }] })).toEqual({ stopReason: "end_turn" });
      expect(t.textOf(sessionId)).toBe("a🆕 New session: 2 message(s) forgotten.");
      expect(t.served.app.agent.session(sessionId)!.history).toHaveLength(1);
    });
    expect(t.model.requests).toHaveLength(1);
    expect(t.problems).toEqual([]);
  });

  it("cancels a running turn: the prompt answers cancelled", async () => {
    const t = inMemoryAcp({
      shell: (r) =>
        new Promise((resolve) => r.signal.addEventListener("abort", () => resolve({ output: "", cancelled: true, exitCode: null, signal: "SIGTERM" }))),
      replies: [toolReply([{ name: "bash", input: { command: "sleep 30" } }])],
    });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      const running = agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "sleep" }] });
      await new Promise((r) => setTimeout(r, 20));
      await agent.notify("session/cancel", { sessionId });
      expect(await running).toEqual({ stopReason: "cancelled" });
    });
    expect(t.problems).toEqual([]);
  });
});

describe("/compact through the client", () => {
  it("leaves the model's next request with the system prompt, the summary and the kept turns, nothing else", async () => {
    const t = inMemoryAcp({ replies: [textReply("a1"), textReply("a2"), textReply("a3"), textReply("SUMMARY"), textReply("a4")] });
    await t.run(
      async (agent) => {
        const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
        for (const q of ["one", "two", "three", "/compact", "four"]) {
          expect(await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: q }] })).toEqual({ stopReason: "end_turn" });
        }
        expect(t.textOf(sessionId)).toMatch(/a1a2a3🗜️ compressed 2 messages → 1 summary \+ 4 kept \(\d+ tokens, \d\.\ds\)a4/);
      },
      { session: { compaction: {} } },
    );
    const next = t.model.requests.at(-1)!;
    expect(next.system).toContain("You are Bob");
    expect(next.messages).toEqual([
      { role: "user", text: "SUMMARY", summary: true },
      { role: "user", text: "two" },
      { role: "assistant", text: "a2", toolCalls: [] },
      { role: "user", text: "three" },
      { role: "assistant", text: "a3", toolCalls: [] },
      { role: "user", text: "four" },
    ]);
    const kinds = t.updates.map((u) => u.update.sessionUpdate);
    expect(kinds).toContain("compaction_update");
    expect(kinds).toContain("compaction_summary_chunk");
    expect(t.logs.some((l) => /\/compact — 🗜️ compressed/.test(l))).toBe(true);
    expect(t.problems).toEqual([]);
  });

  it("sends only the spec's chunk to a client without the compaction capability", async () => {
    const t = inMemoryAcp({ replies: [textReply("a1"), textReply("a2"), textReply("a3"), textReply("SUMMARY")] });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      for (const q of ["one", "two", "three", "/compact"]) await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: q }] });
    });
    expect(t.updates.map((u) => u.update.sessionUpdate)).not.toContain("compaction_update");
  });
});

describe("the editor's file system", () => {
  it("reads unsaved buffers and writes through the editor when the client offers fs", async () => {
    const editorFiles = new Map([["/w/a.txt", "unsaved buffer\n"]]);
    const t = inMemoryAcp({
      editorFiles,
      files: { "/w/a.txt": "on disk\n" },
      replies: [
        toolReply([{ name: "read_file", input: { path: "a.txt" } }]),
        toolReply([{ name: "edit_file", input: { path: "a.txt", old_text: "unsaved", new_text: "saved" } }]),
        textReply("ok"),
      ],
    });
    await t.run(
      async (agent) => {
        const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
        await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
      },
      { fs: { readTextFile: true, writeTextFile: true } },
    );
    const outputs = t.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(outputs[0]).toMatchObject({ rawOutput: { output: "unsaved buffer\n" } });
    expect(editorFiles.get("/w/a.txt")).toBe("saved buffer\n");
    expect(t.fs.files.get("/w/a.txt")).toBe("on disk\n");
    expect(t.problems).toEqual([]);
  });

  it("uses the local files without the capability", async () => {
    const t = inMemoryAcp({ files: { "/w/a.txt": "on disk\n" }, replies: [toolReply([{ name: "read_file", input: { path: "a.txt" } }]), textReply("ok")] });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
    });
    const done = t.updates.map((u) => u.update).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(done).toMatchObject({ rawOutput: { output: "on disk\n" } });
    expect(t.updates.map((u) => u.update.sessionUpdate)).toContain("usage_update");
  });
});

describe("many permission requests in one turn", () => {
  it("leave no abort listener behind (no MaxListenersExceededWarning)", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    const calls = Array.from({ length: 15 }, (_, i) => ({ name: "bash", input: { command: `echo ${i}` } }));
    const t = inMemoryAcp({ replies: [toolReply(calls), textReply("ok")] });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
    });
    await new Promise((r) => setTimeout(r, 20));
    process.off("warning", onWarning);
    expect(t.permissions).toHaveLength(15);
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });
});
