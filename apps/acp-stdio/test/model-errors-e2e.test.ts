/**
 * The built `mm-acp`'s words for two first-hour mistakes, as an editor sees them: https:// against a
 * plain-HTTP server (a hint to use http://, not retried), and a key the server refuses (named by the
 * variable that held it, `model.apiKeyEnv` here).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, status, type FakeOpenAI } from "@mm/fake-openai";
import { removeTempDirs, tempDir } from "./faults/helpers.js";
import { spawnAgent, stop, type SpawnOptions } from "./spawned-agent.js";

let server: FakeOpenAI;
let cwd: string;

beforeEach(async () => {
  server = await startFakeOpenAI();
  cwd = tempDir("model-errors");
});
afterEach(async () => {
  await server.close();
  removeTempDirs();
});

/** The prompt's JSON-RPC error, and the agent's stderr. */
const failedPrompt = async (options: SpawnOptions): Promise<{ error: { code: number; data: { error: string } }; stderr: string }> => {
  const agent = spawnAgent({ cwd, ...options });
  const error = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    return client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] }).then(
      () => {
        throw new Error("expected a failure");
      },
      (e: { code: number; data: { error: string } }) => e,
    );
  });
  await stop(agent);
  expect(agent.problems).toEqual([]);
  return { error, stderr: agent.stderr() };
};

describe("model errors that say what to do", () => {
  it("https:// against a plain-HTTP server: use http://, at once", async () => {
    const https = server.url.replace(/^http:/, "https:");
    const started = Date.now();
    const { error, stderr } = await failedPrompt({ env: { MM_BASE_URL: https, MM_MODEL: "fake-model", XDG_CONFIG_HOME: cwd } });
    expect(error.code).toBe(-32603);
    expect(error.data.error).toBe(
      `cannot reach the model server at ${https}: it answers plain HTTP, not TLS ("wrong version number"); use http://, as in ${server.url}`,
    );
    expect(Date.now() - started).toBeLessThan(1500);
    expect(stderr).not.toContain("retry");
    expect(stderr).not.toMatch(/ERR_SSL|ssl3_get_record/);
  });

  it("a refused key names the variable model.apiKeyEnv says held it", async () => {
    server.enqueue(status(401, { error: { message: "Invalid API key", type: "invalid_request_error" } }));
    const config = join(cwd, "config.json");
    writeFileSync(config, JSON.stringify({ model: { baseURL: server.url, name: "fake-model", apiKeyEnv: "WORK_MODEL_KEY" } }));
    const { error } = await failedPrompt({ args: ["--config", config], env: { WORK_MODEL_KEY: "k-work-0123456789" } });
    expect(error.data.error).toBe(
      "the model server refused the key in WORK_MODEL_KEY (401): Invalid API key (check that variable's value, or model.apiKeyEnv)",
    );
    expect(server.requests[0]?.headers.authorization).toBe("Bearer k-work-0123456789");
  });
});
