/**
 * MCP servers from the editor, end to end: the built mm-acp ("full" surface) starts the servers of
 * `session/new` (a stdio test server, one that fails to start, and an HTTP one), offers their tools to
 * the model, gates a call with the permission dialog, runs it, tells the editor once when a server
 * fails or dies, and leaves no server process behind when the session ends. On the spec surface the
 * servers are counted and ignored.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";

const SERVER = fileURLToPath(new URL("../../../packages/mcp/test-fixtures/test-mcp-server.mjs", import.meta.url));

let fake: FakeOpenAI;
let cwd: string;
let marker: string;

beforeEach(async () => {
  fake = await startFakeOpenAI();
  cwd = mkdtempSync(join(tmpdir(), "mm-mcp-"));
  marker = `mcp-e2e-${process.pid}-${Date.now()}`;
});
afterEach(async () => {
  await fake.close();
  rmSync(cwd, { recursive: true, force: true });
});

const env = (surface: "full" | "spec") => ({
  MM_BASE_URL: fake.url,
  OPENAI_API_KEY: "sk-mcp",
  MM_MODEL: "fake-model",
  MM_ACP_SURFACE: surface,
  XDG_CONFIG_HOME: cwd,
});
const stdioServer = (name: string, ...args: string[]): acp.McpServerStdio => ({
  name,
  command: process.execPath,
  args: [SERVER, "--with-child", `--marker=${marker}`, ...args],
  env: [],
});
const say = (sessionId: string, t: string) => ({ sessionId, prompt: [{ type: "text" as const, text: t }] });

/** Running processes (zombies aside) whose command line holds this test's marker. */
const leftovers = (): string[] =>
  execFileSync("ps", ["-e", "-o", "stat=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker) && !line.trim().startsWith("Z") && !line.includes("ps -e"));

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("MCP servers from the editor (full surface)", () => {
  it("offers the tools, gates and runs a call, reports a failed and a crashed server once, and leaves no process behind", async () => {
    fake.enqueue(
      toolCalls([{ name: "tests__echo", arguments: { text: "from the model" } }]),
      text("echoed"),
      toolCalls([{ name: "tests__crash", arguments: {} }]),
      text("it crashed"),
      text("still here"),
    );
    const agent = spawnAgent({ env: env("full"), cwd });
    await agent.run(async (client) => {
      const init = await client.request("initialize", { protocolVersion: 1 });
      expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [stdioServer("tests"), stdioServer("broken", "--fail-start")] });
      expect(leftovers().length).toBeGreaterThanOrEqual(2);
      expect(await client.request("session/prompt", say(sessionId, "echo something"))).toEqual({ stopReason: "end_turn" });
      expect(await client.request("session/prompt", say(sessionId, "crash it"))).toEqual({ stopReason: "end_turn" });
      await settle(200);
      expect(await client.request("session/prompt", say(sessionId, "are you there?"))).toEqual({ stopReason: "end_turn" });
      const chunks = agent.updates
        .map((u) => u.update)
        .filter((u) => u.sessionUpdate === "agent_message_chunk")
        .map((u) => (u as { content: { text: string } }).content.text);
      expect(chunks.filter((c) => c.includes('MCP server "broken" failed to start'))).toHaveLength(1);
      expect(chunks.filter((c) => c.includes('MCP server "tests" stopped (stderr: fatal: crashing on purpose)'))).toHaveLength(1);
    });
    await stop(agent);
    const chat = fake.requests
      .filter((r) => r.path === "/v1/chat/completions")
      .map((r) => r.body as { tools?: { function: { name: string } }[]; messages: { role: string; content: unknown }[] });
    expect(chat[0]!.tools!.map((t) => t.function.name)).toEqual(
      expect.arrayContaining(["bash", "tests__echo", "tests__slow", "tests__crash", "tests__snap", "tests__boom"]),
    );
    expect(chat[0]!.tools!.map((t) => t.function.name).some((n) => n.startsWith("broken__"))).toBe(false);
    expect(chat[1]!.messages.at(-1)).toMatchObject({ role: "tool", content: "echo: from the model" });
    expect(chat[4]!.tools!.map((t) => t.function.name).some((n) => n.startsWith("tests__"))).toBe(false);
    expect(agent.permissions.map((p) => p.toolCall.title)).toEqual(["tests: echo", "tests: crash"]);
    expect(agent.permissions[0]!.toolCall.kind).toBe("read");
    expect(agent.stderr()).toMatch(/turn done: 1 command\(s\)/);
    // The log has the line that says why and the stderr's tail after it.
    expect(agent.stderr()).toMatch(/MCP server "broken" failed to start: .*TEST_TOKEN is not set\); stderr: .*TEST_TOKEN is not set/);
    expect(agent.stderr()).toMatch(/MCP server "tests" stopped .*fatal: crashing on purpose/);
    await settle(300);
    expect(leftovers()).toEqual([]);
    expect(agent.problems).toEqual([]);
  });

  it("ends a session's servers, children included, when the session is closed and when the agent gets SIGTERM", async () => {
    const agent = spawnAgent({ env: env("full"), cwd });
    await agent
      .run(async (client) => {
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [stdioServer("one")] });
        const other = await client.request("session/new", { cwd, mcpServers: [stdioServer("two")] });
        expect(leftovers().length).toBe(4);
        await client.request("session/close", { sessionId });
        await settle(300);
        expect(leftovers()).toHaveLength(2);
        expect(other.sessionId).not.toBe(sessionId);
        agent.child.kill("SIGTERM");
        await agent.exited;
      })
      .catch(() => undefined);
    await settle(300);
    expect(leftovers()).toEqual([]);
  });

  it("talks to an HTTP server", async () => {
    const { serveHttp } = (await import(SERVER)) as { serveHttp: () => Promise<{ url: string; close: () => void }> };
    const http = await serveHttp();
    try {
      fake.enqueue(toolCalls([{ name: "web__snap", arguments: {} }]), text("saw it"));
      const agent = spawnAgent({ env: env("full"), cwd });
      await agent.run(async (client) => {
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [{ type: "http", name: "web", url: http.url, headers: [] }] });
        await client.request("session/prompt", say(sessionId, "take a snapshot"));
      });
      await stop(agent);
      const done = agent.updates.map((u) => u.update).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed") as { content: unknown[] };
      expect(done.content).toEqual([
        { type: "content", content: { type: "text", text: "a 1×1 image" } },
        { type: "content", content: { type: "image", data: expect.any(String), mimeType: "image/png" } },
      ]);
      expect(agent.problems).toEqual([]);
    } finally {
      http.close();
    }
  });
});

describe("on the spec surface", () => {
  it("counts the servers and ignores them: nothing is started", async () => {
    const agent = spawnAgent({ env: env("spec"), cwd });
    await agent.run(async (client) => {
      const init = await client.request("initialize", { protocolVersion: 1 });
      expect(init.agentCapabilities?.mcpCapabilities).toBeUndefined();
      await client.request("session/new", { cwd, mcpServers: [stdioServer("tests")] });
      await settle(300);
      expect(leftovers()).toEqual([]);
    });
    await stop(agent);
    expect(agent.stderr()).toContain("(1 MCP server(s) ignored)");
  });
});

// Issue 28: server `github!` took over every tool of server `github` (calls, arguments and "Always
// allow" grants), as their names came to the same `github__echo`. Now the later is left out, said once.
describe("MCP tool names", () => {
  it("keeps each name to one tool: a server whose tools would take another's names is left out of those", async () => {
    fake.enqueue(text("ok"));
    const agent = spawnAgent({ env: env("full"), cwd });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [stdioServer("github"), stdioServer("github!")] });
      await client.request("session/prompt", say(sessionId, "hi"));
      await client.request("session/close", { sessionId });
    });
    await stop(agent);
    const chat = fake.requests.find((r) => r.path.endsWith("/chat/completions"))!;
    const names = ((chat.body as { tools: { function: { name: string } }[] }).tools ?? []).map((t) => t.function.name);
    expect(names.filter((n) => n === "github__echo")).toHaveLength(1);
    expect(agent.stderr()).toContain('MCP tool github__echo of server "github!" left out: its name is that of a tool of server "github"');
  });
});
