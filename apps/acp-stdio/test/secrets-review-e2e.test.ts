/**
 * An attacker's review of secrets redaction (issue 36), end to end through the built mm-acp: the
 * ways a secret could still get past it, each found by the review and fixed.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, status, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { removeTempDirs } from "./faults/helpers.js";
import { stop, type SpawnedAgent } from "./spawned-agent.js";
import { secretsCase, spawnWithKey, type SecretsCase } from "./secrets-case.js";

const KEY = "sk-review-split-5d8e2f71c0a94b";
const REDACTED = "[redacted: a secret of the agent's]";

let fake: FakeOpenAI;
let secrets: SecretsCase;
let cwd: string;

beforeEach(async () => {
  fake = await startFakeOpenAI();
  secrets = secretsCase("redaction-review");
  cwd = secrets.cwd;
});
afterEach(async () => {
  await fake.close();
});
afterAll(removeTempDirs);

const spawnWith = (keys: Record<string, unknown>, env: Record<string, string> = {}, clientCapabilities = {}): SpawnedAgent =>
  spawnWithKey(secrets, { baseUrl: fake.url, key: KEY, keys, env, clientCapabilities });

const prompt = async (agent: SpawnedAgent): Promise<void> =>
  agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    // A turn the model server fails answers an error: what it says is checked with the rest of the wire.
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] }).catch(() => undefined);
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

describe("the key in what the model server answers, and in model.baseURL", () => {
  it("a 401 whose body echoes the key: not in what the editor is shown nor in the log", async () => {
    fake.enqueue(
      status(401, {
        error: { message: `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.example/account`, type: "invalid_request_error" },
      }),
    );
    const agent = spawnWith({});
    await prompt(agent);
    await stop(agent);
    expect(agent.stdoutLines.join("\n")).not.toContain(KEY);
    expect(agent.stderr()).not.toContain(KEY);
  });

  for (const [name, credentials, secret] of [
    ["a token as the URL's user", "proxy-token-3e9f1a2b7c@", "proxy-token-3e9f1a2b7c"],
    ["a password", "mm:pw-secret-8d2c6e4a1f@", "pw-secret-8d2c6e4a1f"],
  ] as const) {
    it(`${name}: not in what the editor is shown nor in the log when the server cannot be used`, async () => {
      const url = fake.url.replace("://", `://${credentials}`);
      const agent = spawnWith({}, { MM_BASE_URL: url });
      await prompt(agent);
      await stop(agent);
      expect(agent.stdoutLines.join("\n")).not.toContain(secret);
      expect(agent.stderr()).not.toContain(secret);
    });
  }
});

describe("a secret holding a quote and a backslash, stored JSON-escaped in the editor's settings file", () => {
  const ODD = 'sk-odd"quote\\slash-4f1e9a';
  it("read_file of the settings file: the escaped form is replaced too", async () => {
    writeFileSync(join(cwd, "settings.json"), `${JSON.stringify({ openai: { api_key: ODD } }, null, 2)}\n`);
    fake.enqueue(toolCalls([{ name: "read_file", arguments: { path: "settings.json" } }]), text("read"));
    const agent = spawnWith({ tools: { sandbox: "off" } }, { OPENAI_API_KEY: ODD });
    await prompt(agent);
    await stop(agent);
    const chat = fake.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => r.body as { messages: { content: unknown }[] });
    const result = String(chat[1]?.messages.at(-1)?.content);
    expect(result).toContain(`"api_key": "${REDACTED}"`);
    expect(result).not.toContain("odd");
  });
});
