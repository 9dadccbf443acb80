/**
 * An attacker's review of secrets redaction (issue 36), end to end through the built mm-acp: the
 * ways a secret could still get past it, each found by the review and fixed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { removeTempDirs, tempDir } from "./faults/helpers.js";
import { spawnAgent, stop, type SpawnedAgent } from "./spawned-agent.js";

const KEY = "sk-review-split-5d8e2f71c0a94b";
const REDACTED = "[redacted: a secret of the agent's]";

let fake: FakeOpenAI;
let dir: string;
let home: string;
let cwd: string;

beforeEach(async () => {
  fake = await startFakeOpenAI();
  dir = tempDir("redaction-review");
  home = join(dir, "home");
  cwd = join(dir, "project");
  mkdirSync(home);
  mkdirSync(cwd);
});
afterEach(async () => {
  await fake.close();
});
afterAll(removeTempDirs);

const spawnWith = (keys: Record<string, unknown>, env: Record<string, string> = {}, clientCapabilities = {}): SpawnedAgent => {
  const config = join(dir, "mm-config.json");
  writeFileSync(config, JSON.stringify({ sessions: { enabled: true }, ...keys }));
  return spawnAgent({
    env: { MM_BASE_URL: fake.url, OPENAI_API_KEY: KEY, MM_MODEL: "fake-model", HOME: home, ...env },
    cwd,
    args: ["--config", config],
    clientCapabilities,
  });
};

const prompt = async (agent: SpawnedAgent): Promise<void> =>
  agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
  });

// The key in two halves, a second apart: two reads of the pipe, two live-output chunks.
const SPLIT = `k=$(tr '\\0' '\\n' < /proc/$PPID/environ | sed -n 's/^OPENAI_API_KEY=//p'); printf 'key=%s' "\${k:0:14}"; sleep 1; printf '%s end\\n' "\${k:14}"`;

describe("a secret split across two live-output chunks (sandbox off)", () => {
  for (const [name, caps] of [
    ["growing in_progress content", {}],
    ["terminal_output chunks", { _meta: { terminal_output: true } }],
  ] as const) {
    it(`is replaced in the ${name} the editor joins, and the rest of the output still arrives`, async () => {
      fake.enqueue(toolCalls([{ name: "bash", arguments: { command: SPLIT } }]), text("done"));
      const agent = spawnWith({ tools: { sandbox: "off" } }, {}, caps);
      await prompt(agent);
      await stop(agent);
      expect(agent.problems).toEqual([]);
      const calls = agent.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call_update");
      const live =
        "_meta" in caps
          ? calls.map((u) => (u._meta?.terminal_output as { data?: string } | undefined)?.data ?? "").join("")
          : calls
              .filter((u) => u.status === "in_progress" && u.content !== undefined)
              .map((u) => (u.content![0] as { content: { text: string } }).content.text)
              .at(-1);
      expect(live).toContain(`key=${REDACTED} end\n`);
      expect(agent.stdoutLines.join("\n")).not.toContain(KEY.slice(0, 20));
      expect(agent.stdoutLines.join("\n")).not.toContain(KEY.slice(14));
    });
  }
});
