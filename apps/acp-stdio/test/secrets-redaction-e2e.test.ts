/**
 * Every secret mm holds stays out of what it hands on (issue 36), end to end through the built mm-acp:
 * the model's key read by `read_file` from the editor's settings file (sandbox on), the key copied
 * into a file by a command that prints nothing (sandbox off: the file's diff), an MCP server's
 * environment value echoed by its tool, and one printed on its stderr (a log line). Checked in the
 * next model request (what the model reads), every line to the editor, the session's files, the log.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { removeTempDirs, tempDir } from "./faults/helpers.js";
import { stop, type SpawnedAgent } from "./spawned-agent.js";
import { bwrapSkipReason } from "./bwrap-probe.js";
import { secretsCase, spawnWithKey, type SecretsCase } from "./secrets-case.js";

const KEY = "sk-redaction-e2e-7c1a9b2d5e";
const TOKEN = "mcp-token-e2e-41f0c3a9";
const REDACTED = "[redacted: a secret of the agent's]";
const SERVER = fileURLToPath(new URL("./fixtures/secrets-images-mcp-server.mjs", import.meta.url));

const probeRoot = tempDir("redaction-probe");
const noBwrap = await bwrapSkipReason(probeRoot);

let fake: FakeOpenAI;
let secrets: SecretsCase;
let home: string;
let cwd: string;

beforeEach(async () => {
  fake = await startFakeOpenAI();
  secrets = secretsCase("redaction");
  ({ home, cwd } = secrets);
});
afterEach(async () => {
  await fake.close();
});
afterAll(removeTempDirs);

const spawnWith = (keys: Record<string, unknown>): SpawnedAgent => spawnWithKey(secrets, { baseUrl: fake.url, key: KEY, keys });

/** Every file under the sessions dir (document, journal, undo data), as text. */
const sessionFiles = (): string => {
  const root = join(cwd, ".mm/sessions");
  const all: string[] = [];
  const walk = (path: string): void => {
    for (const name of readdirSync(path)) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) walk(child);
      else all.push(readFileSync(child, "latin1"));
    }
  };
  walk(root);
  return all.join("\n");
};

const chatBodies = (): string => JSON.stringify(fake.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => r.body));

/** The last message the model was sent (the tool's result, at the second request). */
const lastToolMessage = (): { role: string; content: unknown } => {
  const chat = fake.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => r.body as { messages: { role: string; content: unknown }[] });
  return chat[1]!.messages.at(-1)!;
};

const prompt = async (agent: SpawnedAgent, mcpServers: acp.McpServer[] = []): Promise<string> =>
  agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers });
    expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] })).toEqual({ stopReason: "end_turn" });
    return sessionId;
  });

const completedUpdates = (agent: SpawnedAgent) =>
  agent.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call_update" && (u.status === "completed" || u.status === "failed"));

describe("the model's key is replaced in what tools hand on", () => {
  it.skipIf(noBwrap !== undefined)(
    "read_file of the editor's settings file (sandbox on): not in the model's next request, the editor's update, the session file",
    async () => {
      mkdirSync(join(home, ".config/zed"), { recursive: true });
      writeFileSync(join(home, ".config/zed/settings.json"), `{ "language_models": { "openai": { "api_key": "${KEY}" } } }\n`);
      fake.enqueue(toolCalls([{ name: "read_file", arguments: { path: "~/.config/zed/settings.json" } }]), text("read"));
      const agent = spawnWith({ tools: { sandbox: "workspace" } });
      await prompt(agent);
      await stop(agent);
      expect(agent.problems).toEqual([]);
      const [done] = completedUpdates(agent);
      expect(done).toMatchObject({ status: "completed" });
      expect(String(lastToolMessage().content)).toContain(`"api_key": "${REDACTED}"`);
      expect(chatBodies()).not.toContain(KEY);
      expect(agent.stdoutLines.join("\n")).not.toContain(KEY);
      expect(sessionFiles()).toContain("api_key");
      expect(sessionFiles()).not.toContain(KEY);
      expect(agent.stderr()).not.toContain(KEY);
    },
  );

  it("a command copying the agent's environment into a file, printing nothing (sandbox off, full surface): not in the diff, the model's request, the session's files, the undo data", async () => {
    fake.enqueue(
      toolCalls([{ name: "bash", arguments: { command: "tr '\\0' '\\n' < /proc/$PPID/environ > envdump" } }]),
      text("copied"),
      toolCalls([{ name: "bash", arguments: { command: "echo overwritten > envdump" } }]),
      text("overwritten"),
    );
    const agent = spawnWith({ tools: { sandbox: "off" }, acp: { surface: "full" } });
    // A second turn changes the file: what it held before (the key) is not copied into /undo's data.
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      for (const t of ["copy", "overwrite"])
        expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: t }] })).toEqual({ stopReason: "end_turn" });
    });
    await stop(agent);
    expect(agent.problems).toEqual([]);
    // The command did copy the key: the file holds it, and its diff is shown, redacted.
    expect(readFileSync(join(cwd, "envdump"), "utf8")).toBe("overwritten\n");
    const wire = agent.stdoutLines.join("\n");
    expect(wire).toContain('"type":"diff"');
    expect(wire).toContain(`OPENAI_API_KEY=${REDACTED}`);
    expect(wire).not.toContain(KEY);
    expect(chatBodies()).not.toContain(KEY);
    expect(sessionFiles()).toContain("envdump");
    expect(sessionFiles()).toContain("it holds a secret of the agent's");
    expect(sessionFiles()).not.toContain(KEY);
    expect(agent.stderr()).not.toContain(KEY);
  });
});

describe("the permission dialog", () => {
  it("shows an edit of a file holding the key with the key replaced in its proposed diff, and the edit is made", async () => {
    writeFileSync(join(cwd, "local.conf"), `name = demo\nkey = ${KEY}\n`);
    fake.enqueue(toolCalls([{ name: "edit_file", arguments: { path: "local.conf", old_text: "name = demo", new_text: "name = renamed" } }]), text("edited"));
    const agent = spawnWith({});
    await prompt(agent);
    await stop(agent);
    expect(agent.problems).toEqual([]);
    expect(agent.permissions).toHaveLength(1);
    expect(JSON.stringify(agent.permissions)).toContain(`key = ${REDACTED}`);
    expect(JSON.stringify(agent.permissions)).not.toContain(KEY);
    expect(agent.stdoutLines.join("\n")).not.toContain(KEY);
    expect(readFileSync(join(cwd, "local.conf"), "utf8")).toBe(`name = renamed\nkey = ${KEY}\n`);
  });
});

describe("a session file written before, holding the key", () => {
  it("loads without it: not in the replay, not in the model's next request, and the file is rewritten without it", async () => {
    const id = "20260101-000000-0000beef";
    mkdirSync(join(cwd, ".mm/sessions"), { recursive: true });
    const document = {
      format: "mm-session",
      version: 1,
      id,
      cwd,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      messages: [
        { role: "system", text: "You are Bob." },
        { role: "user", text: "read the settings" },
        { role: "assistant", text: "", toolCalls: [{ id: "call_1", name: "read_file", input: { path: "settings.json" } }] },
        { role: "tool", callId: "call_1", toolName: "read_file", status: "completed", output: `{ "api_key": "${KEY}" }` },
        { role: "assistant", text: "read", toolCalls: [] },
      ],
    };
    writeFileSync(join(cwd, ".mm/sessions", `${id}.json`), `${JSON.stringify(document)}\n`, { mode: 0o600 });
    fake.enqueue(text("again"));
    const agent = spawnWith({});
    await agent.run(async (client) => {
      await client.request("session/load", { sessionId: id, cwd, mcpServers: [] });
      expect(await client.request("session/prompt", { sessionId: id, prompt: [{ type: "text", text: "go on" }] })).toEqual({ stopReason: "end_turn" });
    });
    await stop(agent);
    expect(agent.problems).toEqual([]);
    expect(agent.stdoutLines.join("\n")).toContain(REDACTED);
    expect(agent.stdoutLines.join("\n")).not.toContain(KEY);
    expect(chatBodies()).toContain(REDACTED);
    expect(chatBodies()).not.toContain(KEY);
    expect(sessionFiles()).toContain("again");
    expect(sessionFiles()).not.toContain(KEY);
  });
});

describe("an MCP server's environment values are secrets too (full surface)", () => {
  const server = (name: string, ...args: string[]): acp.McpServerStdio => ({
    name,
    command: process.execPath,
    args: [SERVER, ...args],
    env: [
      { name: "TEST_TOKEN", value: TOKEN },
      { name: "TEST_MODE", value: "verbose" },
    ],
  });

  it("a tool echoing its environment: the value is replaced for the model, the editor and the session file", async () => {
    fake.enqueue(toolCalls([{ name: "vault__env", arguments: {} }]), text("seen"));
    const agent = spawnWith({ acp: { surface: "full" } });
    await prompt(agent, [server("vault")]);
    await stop(agent);
    expect(agent.problems).toEqual([]);
    expect(lastToolMessage()).toMatchObject({ role: "tool", content: `TEST_TOKEN=${REDACTED}\nTEST_MODE=verbose` });
    expect(chatBodies()).not.toContain(TOKEN);
    expect(agent.stdoutLines.join("\n")).not.toContain(TOKEN);
    expect(sessionFiles()).toContain("TEST_TOKEN");
    expect(sessionFiles()).not.toContain(TOKEN);
  });

  it("a server printing it on stderr as it fails to start: not in the log, nor in what the editor is told", async () => {
    fake.enqueue(text("fine"));
    const agent = spawnWith({ acp: { surface: "full" } });
    await prompt(agent, [server("broken", "--fail-start")]);
    await stop(agent);
    expect(agent.stderr()).toContain(`MCP server "broken" failed to start`);
    expect(agent.stderr()).toContain(`token ${REDACTED} refused`);
    expect(agent.stderr()).not.toContain(TOKEN);
    expect(agent.stdoutLines.join("\n")).not.toContain(TOKEN);
  });
});
