/**
 * Sessions on disk, end to end: one agent process saves a conversation, a new one loads it through
 * the SDK client, replays it exactly, and the model's next request holds the old history.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";

let server: FakeOpenAI;
let cwd: string;
let configPath: string;

beforeEach(async () => {
  server = await startFakeOpenAI();
  cwd = mkdtempSync(join(tmpdir(), "mm-sessions-"));
  configPath = join(cwd, "mm.json");
  writeFileSync(configPath, JSON.stringify({ sessions: { enabled: true } }));
});
afterEach(async () => server.close());

const env = () => ({ MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-sessions-test", MM_MODEL: "fake", XDG_CONFIG_HOME: cwd });

describe("sessions on disk", () => {
  it("a conversation saved by one process is loaded and replayed exactly by another", async () => {
    writeFileSync(join(cwd, "notes.txt"), "alpha\nbeta\n");
    server.enqueue(
      text(["Hello", " there"]),
      toolCalls([{ name: "bash", arguments: { command: "echo listed" } }]),
      text("Listed."),
      toolCalls([{ name: "write_file", arguments: { path: "evil.txt", content: "no" } }]),
      text("Not written."),
      toolCalls([{ name: "edit_file", arguments: { path: "notes.txt", old_text: "beta", new_text: "gamma" } }]),
      text("Edited."),
    );
    const first = spawnAgent({
      env: env(),
      cwd,
      args: ["--config", configPath],
      permission: (p) => (p.toolCall.title?.startsWith("write_file") ? "reject" : "allow"),
    });
    const sessionId = await first.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      for (const prompt of ["hi", "list", "write", "edit"]) {
        await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: prompt }] });
      }
      return sessionId;
    });
    await stop(first);
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("alpha\ngamma\n");
    const file = join(cwd, ".mm/sessions", `${sessionId}.json`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(cwd, ".mm/sessions")).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, "utf8")).not.toContain("sk-sessions-test");

    server.enqueue(text("Welcome back."));
    const second = spawnAgent({ env: env(), cwd, args: ["--config", configPath] });
    await second.run(async (client) => {
      expect(await client.request("session/load", { sessionId, cwd, mcpServers: [] })).toEqual({});
      const replay = second.updates.map((u) => u.update);
      const kinds = replay.map((u) => u.sessionUpdate);
      expect(kinds).toEqual([
        "user_message_chunk",
        "agent_message_chunk",
        "user_message_chunk",
        "tool_call",
        "agent_message_chunk",
        "user_message_chunk",
        "tool_call",
        "agent_message_chunk",
        "user_message_chunk",
        "tool_call",
        "agent_message_chunk",
        "usage_update",
        "available_commands_update",
      ]);
      const calls = replay.filter((u) => u.sessionUpdate === "tool_call");
      expect(calls).toEqual([
        expect.objectContaining({
          toolCallId: "call_1",
          title: "bash: echo listed",
          kind: "execute",
          status: "completed",
          rawInput: { command: "echo listed" },
          rawOutput: { output: "listed\n[exit code: 0]" },
        }),
        expect.objectContaining({
          toolCallId: "call_2",
          title: "write_file: evil.txt",
          kind: "edit",
          status: "failed",
          rawOutput: { output: "[command rejected by the user]" },
        }),
        expect.objectContaining({
          toolCallId: "call_3",
          title: "edit_file: notes.txt",
          kind: "edit",
          status: "completed",
          locations: [{ path: join(cwd, "notes.txt") }],
        }),
      ]);
      expect((calls[0] as { content: unknown[] }).content[0]).toEqual({ type: "content", content: { type: "text", text: "listed\n[exit code: 0]" } });
      expect(replay[0]).toEqual({ sessionUpdate: "user_message_chunk", content: { type: "text", text: "hi" } });
      expect(replay[1]).toEqual({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hello there" } });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] });
      const newCalls = second.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call");
      expect(newCalls).toHaveLength(3);
    });
    await stop(second);
    expect(second.stderr()).toContain(`[acp] session ${sessionId} loaded from ${join(cwd, ".mm/sessions")}: 11 message(s) replayed`);
    const request = server.requests.at(-1)!.body as { messages: { role: string; content: unknown; tool_calls?: { id: string }[] }[] };
    expect(request.messages[0]!.role).toBe("system");
    expect(request.messages.map((m) => m.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(request.messages.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? [])).toEqual(["call_1", "call_2", "call_3"]);
    expect(first.problems).toEqual([]);
    expect(second.problems).toEqual([]);
  });

  it("refuses unknown ids, corrupt files and path tricks with invalid params, leaving the file as it was", async () => {
    const dir = join(cwd, ".mm/sessions");
    const agent = spawnAgent({ env: env(), cwd, args: ["--config", configPath] });
    await agent.run(async (client) => {
      await client.request("session/new", { cwd, mcpServers: [] });
      const corruptId = "20260101-000000-deadbeef";
      const corrupt = join(dir, `${corruptId}.json`);
      writeFileSync(corrupt, "{ not json", { mode: 0o600 });
      for (const sessionId of ["20990101-000000-00000000", corruptId, "../../etc/passwd", "/etc/passwd", "x".repeat(10_000)]) {
        const error = await client.request("session/load", { sessionId, cwd, mcpServers: [] }).then(
          () => undefined,
          (e: { code: number; data: { sessionId: string; error: string } }) => e,
        );
        expect(error?.code).toBe(-32602);
        expect(error?.data.sessionId).toBe(sessionId);
        expect(error?.data.error).toBeTruthy();
      }
      expect(readFileSync(corrupt, "utf8")).toBe("{ not json");
    });
    await stop(agent);
    expect(readdirSync(dir).filter((f) => !f.endsWith(".json") && f !== ".gitignore")).toEqual([]);
    expect(agent.problems).toEqual([]);
  });

  it("/new keeps the conversation so far under a new id", async () => {
    server.enqueue(text("one"));
    const agent = spawnAgent({ env: env(), cwd, args: ["--config", configPath] });
    const sessionId = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "first" }] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/new" }] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/new" }] });
      return sessionId;
    });
    await stop(agent);
    const kept = /previous conversation kept as (\S+)/.exec(agent.stderr())![1]!;
    expect(agent.stderr().match(/previous conversation kept as/g)).toHaveLength(1);
    const keptDoc = JSON.parse(readFileSync(join(cwd, ".mm/sessions", `${kept}.json`), "utf8")) as { messages: { role: string }[] };
    expect(keptDoc.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    const own = JSON.parse(readFileSync(join(cwd, ".mm/sessions", `${sessionId}.json`), "utf8")) as { messages: unknown[] };
    expect(own.messages).toHaveLength(1);
  });
});
