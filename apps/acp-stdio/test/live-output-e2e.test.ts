/**
 * Live output end to end: the built `mm-acp`, spawned, driven by the SDK's client against the fake
 * OpenAI server, runs a real bash command that prints a line every 300 ms for 2 s.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";

const COMMAND = "for i in 1 2 3 4 5 6 7; do echo line $i; sleep 0.3; done";
const ALL_LINES = [1, 2, 3, 4, 5, 6, 7].map((i) => `line ${i}\n`).join("");

let server: FakeOpenAI;
let cwd: string;
beforeEach(async () => {
  server = await startFakeOpenAI();
  cwd = mkdtempSync(join(tmpdir(), "mm-live-"));
});
afterEach(async () => {
  await server.close();
  rmSync(cwd, { recursive: true, force: true });
});

const runCommand = async (clientCapabilities: acp.ClientCapabilities) => {
  server.enqueue(toolCalls([{ name: "bash", arguments: { command: COMMAND } }]), text("done"));
  const agent = spawnAgent({ env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-test", MM_MODEL: "fake", XDG_CONFIG_HOME: cwd }, cwd, clientCapabilities });
  await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "count" }] })).toEqual({ stopReason: "end_turn" });
  });
  expect((await stop(agent)).code).toBe(0);
  expect(agent.problems).toEqual([]);
  return agent.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");
};

describe("a command printing a line every 300 ms for 2 s", () => {
  it("shows at least three growing in_progress outputs before it completes", async () => {
    const calls = await runCommand({});
    const texts = calls
      .filter((u) => u.status === "in_progress" && u.content !== undefined)
      .map((u) => (u.content![0] as { content: { text: string } }).content.text);
    expect(texts.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < texts.length; i++) expect(texts[i]!.startsWith(texts[i - 1]!) && texts[i]!.length > texts[i - 1]!.length).toBe(true);
    expect(texts[0]).toMatch(/^line 1\n/);
    expect(calls.at(-1)).toMatchObject({ status: "completed", rawOutput: { output: `${ALL_LINES}[exit code: 0]` } });
  });

  it("with _meta.terminal_output, is a terminal: its output in order, then the exit", async () => {
    const calls = await runCommand({ _meta: { terminal_output: true } });
    expect(calls[0]).toMatchObject({
      sessionUpdate: "tool_call",
      content: [{ type: "terminal", terminalId: "call_1" }],
      _meta: { terminal_info: { terminal_id: "call_1", cwd } },
    });
    const outputs = calls.filter((u) => u._meta?.terminal_output !== undefined);
    expect(outputs.length).toBeGreaterThanOrEqual(3);
    expect(outputs.map((u) => (u._meta!.terminal_output as { data: string }).data).join("")).toBe(ALL_LINES);
    expect(calls.indexOf(outputs.at(-1)!)).toBe(calls.length - 2);
    expect(calls.at(-1)).toMatchObject({ status: "completed", _meta: { terminal_exit: { terminal_id: "call_1", exit_code: 0, signal: null } } });
  });
});
