/**
 * End to end: the built `mm-acp`, spawned, driven by the SDK's client, against a local
 * OpenAI-compatible server on 127.0.0.1.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, status, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop, BIN } from "./spawned-agent.js";

const KEY = "sk-test-e2e-0123456789";
let server: FakeOpenAI;
let cwd: string;
const env = () => ({ MM_BASE_URL: server.url, OPENAI_API_KEY: KEY, MM_MODEL: "fake-model", XDG_CONFIG_HOME: cwd });

beforeEach(async () => {
  server = await startFakeOpenAI();
  cwd = mkdtempSync(join(tmpdir(), "mm-e2e-"));
});
afterEach(async () => {
  await server.close();
});

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("mm-acp end to end", () => {
  it("streams text and a bash call with permission, ending end_turn; a second session continues the numbering", async () => {
    server.enqueue(
      toolCalls([{ name: "bash", arguments: { command: "echo from-bash" } }], "Let me look. "),
      text(["All ", "done."]),
      toolCalls([{ name: "bash", arguments: { command: "pwd" } }]),
      text("ok"),
    );
    const agent = spawnAgent({ env: env(), cwd });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run it" }] })).toEqual({ stopReason: "end_turn" });
      expect(agent.textOf(sessionId)).toBe("Let me look. All done.");
      const second = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId: second.sessionId, prompt: [{ type: "text", text: "where" }] });
    });
    expect(agent.permissions.map((p) => p.toolCall.toolCallId)).toEqual(["call_1", "call_2"]);
    const done = agent.updates.map((u) => u.update).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(done).toMatchObject({ toolCallId: "call_1", rawOutput: { output: "from-bash\n[exit code: 0]" } });
    const second = server.requests[1]!.body as { messages: { role: string; tool_call_id?: string; content?: unknown }[] };
    expect(second.messages.find((m) => m.role === "tool")).toMatchObject({ tool_call_id: "call_1" });
    const { code } = await stop(agent);
    expect(code).toBe(0);
    expect(agent.problems).toEqual([]);
    expect(agent.stderr()).toContain("[acp] turn done: 1 command(s) · 0 file op(s) · 0 skill(s)");
    expect(agent.stderr()).not.toContain(KEY);
  });

  it("cancel during `sleep 30` answers cancelled within 2 s and the process group is gone", async () => {
    const pidFile = join(cwd, "pid");
    server.enqueue(toolCalls([{ name: "bash", arguments: { command: `echo $$ > ${pidFile}; sleep 30` } }]));
    const agent = spawnAgent({ env: env(), cwd });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      const running = client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "sleep" }] });
      const deadline = Date.now() + 10_000;
      while (agent.updates.every((u) => u.update.sessionUpdate !== "tool_call_update" || u.update.status !== "in_progress")) {
        if (Date.now() > deadline) throw new Error("the tool never started");
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 200));
      const pgid = Number(execFileSync("cat", [pidFile]).toString().trim());
      expect(groupAlive(pgid)).toBe(true);
      const started = Date.now();
      await client.notify("session/cancel", { sessionId });
      expect(await running).toEqual({ stopReason: "cancelled" });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(groupAlive(pgid)).toBe(false);
    });
    await stop(agent);
    expect(agent.problems).toEqual([]);
  });

  it("a model server answering 500 gives internal error with a one-line explanation; the unanswered question is dropped", async () => {
    // The server says to retry after 5 ms: the test checks the retries, never sleeps through the 2 s + 4 s backoff.
    const busy = () => status(500, undefined, { "retry-after-ms": "5" });
    server.enqueue(busy(), busy(), busy(), text("recovered"));
    const agent = spawnAgent({ env: env(), cwd });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      const error = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "first" }] }).then(
        () => {
          throw new Error("expected a failure");
        },
        (e: { code: number; data: { error: string } }) => e,
      );
      expect(error.code).toBe(-32603);
      expect(error.data.error).toMatch(/500/);
      expect(error.data.error).not.toContain("\n");
      expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "second" }] })).toEqual({ stopReason: "end_turn" });
    });
    const last = server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    const users = last.messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
    expect(users.some((u) => u.includes("first"))).toBe(false);
    expect(users.some((u) => u.includes("second"))).toBe(true);
    await stop(agent);
    expect(agent.problems).toEqual([]);
    expect(agent.stderr()).toContain("mm-acp: model server answered 500, retry 1/2 in 5 ms");
    expect(agent.stderr()).toContain("mm-acp: model server answered 500, retry 2/2 in 5 ms");
    expect(agent.stderr()).toContain("[acp] turn done: 0 command(s) · 0 file op(s) · 0 skill(s) · failed: model server error 500");
    // One line per turn: the failed one says why on the same line.
    expect(agent.stderr().match(/\[acp\] turn done.*/g)).toEqual([
      expect.stringContaining("· failed: model server error 500"),
      expect.not.stringContaining("failed"),
    ]);
  });

  it("prints help and version, and exits 2 with one line on a bad configuration file", async () => {
    expect(execFileSync(process.execPath, [BIN, "--version"]).toString()).toBe("0.11.0\n");
    expect(execFileSync(process.execPath, [BIN, "-v"]).toString()).toBe("0.11.0\n");
    const bad = join(cwd, "bad.json");
    writeFileSync(bad, JSON.stringify({ model: { contextWindow: "big" } }));
    const agent = spawnAgent({ env: env(), cwd, args: ["--config", bad] });
    const { code } = await agent.exited;
    expect(code).toBe(2);
    expect(agent.stderr().trim().split("\n")).toHaveLength(1);
    expect(agent.stderr()).toContain("model.contextWindow");
    expect(agent.stdoutLines).toEqual([]);
  });
});
