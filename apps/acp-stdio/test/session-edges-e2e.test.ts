/**
 * Edges of sessions an editor or a hostile input reaches (issue 28), through the built binary: a cwd
 * that does not exist or is a file (the old code created it, with cwd "/" writing /.mm/sessions), a
 * permission answer of `{}` or `null` (the model was told a raw JavaScript error), and
 * `session/delete` of an id this process never saw (answered `invalid params`; ACP says it SHOULD
 * succeed, acp-tck ACP-DELETE-002).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { afterEach, beforeEach, expect, it } from "vitest";
import { spawnAgent, stop } from "./spawned-agent.js";

let server: FakeOpenAI;
let root: string;
beforeEach(async () => {
  server = await startFakeOpenAI();
  root = mkdtempSync(join(tmpdir(), "mm-session-edges-"));
});
afterEach(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({ MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-x", MM_MODEL: "m", HOME: root, ...extra });
const withSessions = (): string[] => {
  const config = join(root, "mm.json");
  writeFileSync(config, JSON.stringify({ sessions: { enabled: true } }));
  return ["--config", config];
};

it("refuses a cwd that does not exist or is a file, naming it, and creates nothing", async () => {
  const missing = join(root, "no/such/project");
  const file = join(root, "a-file");
  writeFileSync(file, "x");
  const agent = spawnAgent({ cwd: root, env: env(), args: withSessions() });
  const errors = await agent.run(async (client) => {
    const refused = async (cwd: string) =>
      client.request("session/new", { cwd, mcpServers: [] }).then(
        () => "accepted",
        (e: { code: number; data?: { error?: string } }) => `${e.code}: ${e.data?.error}`,
      );
    return [await refused(missing), await refused(file)];
  });
  await stop(agent);
  expect(errors).toEqual([`-32602: cwd does not exist: ${missing}`, `-32602: cwd is not a directory: ${file}`]);
  expect(existsSync(join(root, "no"))).toBe(false);
  expect(agent.problems).toEqual([]);
});

it.each([{}, null])("takes a permission answer of %j as a rejection, and tells the model so", async (answer) => {
  server.enqueue(toolCalls([{ name: "bash", arguments: { command: "echo ran > ran.txt" } }]), text("ok"));
  const agent = spawnAgent({ cwd: root, env: env(), rawPermissionAnswer: answer });
  await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd: root, mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
  });
  await stop(agent);
  expect(existsSync(join(root, "ran.txt"))).toBe(false);
  const told = JSON.stringify((server.requests[1]!.body as { messages: unknown[] }).messages.at(-1));
  expect(told).toContain("[command rejected by the user]");
});

it("answers session/delete of a session it never saw with {}", async () => {
  const agent = spawnAgent({ cwd: root, env: env({ MM_ACP_SURFACE: "full" }), args: withSessions() });
  const answer = await agent.run((client) => client.request("session/delete", { sessionId: "20260101-000000-00000000" }));
  await stop(agent);
  expect(answer).toEqual({});
});

// The spec: `<id>.json` is rewritten after every turn. On the old code the journal was folded into it
// only on a rewrite or when the process let go: between, the document alone missed the last turns.
it("leaves <id>.json holding every message after each of three turns, read alone", async () => {
  const agent = spawnAgent({ cwd: root, env: env(), args: withSessions() });
  const counts = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd: root, mcpServers: [] });
    const file = join(root, ".mm/sessions", `${sessionId}.json`);
    const seen: number[] = [];
    for (const word of ["one", "two", "three"]) {
      server.enqueue(toolCalls([{ name: "bash", arguments: { command: `echo ${word}` } }]), text(`done ${word}`));
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: word }] });
      let messages = 0;
      for (let waited = 0; waited < 2000; waited += 20) {
        const document = JSON.parse(readFileSync(file, "utf8")) as { messages: { role: string; text?: string }[] };
        messages = document.messages.length;
        if (document.messages.some((m) => m.role === "assistant" && m.text === `done ${word}`)) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      seen.push(messages);
    }
    return seen;
  });
  await stop(agent);
  // Each turn: the user's prompt, the call, its result, the answer (the system prompt first).
  expect(counts).toEqual([5, 9, 13]);
});

// A FIFO at `<id>.lock` hung session/load, and from then on every prompt of every session of that
// process; a symlink to /dev/zero read half a gigabyte. Now both are named once, never read, and
// replaced by a real lock (issue 36: the session is never used unlocked).
it.each([
  ["a FIFO", (lock: string) => void execFileSync("mkfifo", [lock])],
  ["a symlink", (lock: string) => symlinkSync("/dev/zero", lock)],
])("loads a session whose lock is %s without hanging, and other sessions go on", async (what, plant) => {
  server.enqueue(text("first"));
  const first = spawnAgent({ cwd: root, env: env(), args: withSessions() });
  const sessionId = await first.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd: root, mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
    return sessionId;
  });
  await stop(first);
  plant(join(root, ".mm/sessions", `${sessionId}.lock`));
  server.enqueue(text("second"));
  const again = spawnAgent({ cwd: root, env: env(), args: withSessions() });
  const answered = await again.run(async (client) => {
    await client.request("session/load", { sessionId, cwd: root, mcpServers: [] });
    const { sessionId: other } = await client.request("session/new", { cwd: root, mcpServers: [] });
    return client.request("session/prompt", { sessionId: other, prompt: [{ type: "text", text: "still there?" }] });
  });
  await stop(again);
  expect(answered).toEqual({ stopReason: "end_turn" });
  expect(again.stderr()).toContain(`was ${what}, not a lock file: replaced by a new lock`);
});

// An MCP server writing one endless line grew the agent to 2.9 GB and slowed every other session.
it("stops an MCP server writing an endless line, says so once, and other sessions go on", async () => {
  const script = join(root, "endless.mjs");
  writeFileSync(script, 'const c = "x".repeat(1 << 20); const go = () => { while (process.stdout.write(c)); process.stdout.once("drain", go); }; go();\n');
  server.enqueue(text("fine"));
  const agent = spawnAgent({ cwd: root, env: env({ MM_ACP_SURFACE: "full" }) });
  const answered = await agent.run(async (client) => {
    await client.request("session/new", { cwd: root, mcpServers: [{ name: "endless", command: process.execPath, args: [script], env: [] }] });
    const { sessionId } = await client.request("session/new", { cwd: root, mcpServers: [] });
    return client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
  });
  await stop(agent);
  expect(answered).toEqual({ stopReason: "end_turn" });
  expect(agent.stderr()).toContain("wrote a line of over 16777216 characters and was stopped");
});
