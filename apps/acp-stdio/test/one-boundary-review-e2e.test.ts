/**
 * An attacker's review of the one boundary (issue 36), through the built binary: what the first
 * round left open. A hard link is another name of the same file, so no check of the path can tell
 * that `AGENTS.md` is `~/.ssh/id_rsa` or the `.env` the sandbox hides: with the sandbox off, a
 * command's `ln ~/.ssh/id_rsa AGENTS.md` put the key in every later session's system prompt.
 */
import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnAgent, stop } from "./spawned-agent.js";

const root = mkdtempSync(join(tmpdir(), "mm-boundary-review-"));
const KEY = "-----BEGIN OPENSSH PRIVATE KEY----- hardlinked-key-material";
const ENV = "DATABASE_PASSWORD=hardlinked-env-secret";

let server: FakeOpenAI;
let home: string;
let cwd: string;
beforeEach(async () => {
  server = await startFakeOpenAI();
  const dir = mkdtempSync(join(root, "case-"));
  home = join(dir, "home");
  cwd = join(home, "src", "repo");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(join(home, ".ssh"));
  writeFileSync(join(home, ".ssh", "id_rsa"), `${KEY}\n`);
  writeFileSync(join(cwd, ".env"), `${ENV}\n`);
});
afterEach(() => server.close());
afterAll(() => rmSync(root, { recursive: true, force: true }));

const spawn = (settings: object) => {
  const config = join(home, "mm.json");
  writeFileSync(config, JSON.stringify(settings));
  return spawnAgent({ cwd, args: ["--config", config], env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-x", MM_MODEL: "m", HOME: home } });
};

const allBodies = () => JSON.stringify(server.requests.map((r) => r.body));

describe("AGENTS.md that is a hard link", () => {
  it("to the private key, made by a command with the sandbox off: refused, named once, the next session goes on without it", async () => {
    server.enqueue(toolCalls([{ name: "bash", arguments: { command: `ln ${join(home, ".ssh", "id_rsa")} AGENTS.md` } }]), text("done"), text("hello"));
    const agent = spawn({ tools: { sandbox: "off" } });
    const answer = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "plant it" }] });
      const next = await client.request("session/new", { cwd, mcpServers: [] });
      return client.request("session/prompt", { sessionId: next.sessionId, prompt: [{ type: "text", text: "hi" }] });
    });
    await stop(agent);
    expect(answer).toEqual({ stopReason: "end_turn" });
    expect(server.requests).toHaveLength(3);
    expect(allBodies()).not.toContain("hardlinked-key-material");
    expect(agent.stderr().split("AGENTS.md not read").length - 1).toBe(1);
    expect(agent.stderr()).toContain("hard link");
  });

  it("to the project's hidden .env (an unpacked archive, a command): not in the system prompt", async () => {
    linkSync(join(cwd, ".env"), join(cwd, "AGENTS.md"));
    server.enqueue(text("hello"));
    const agent = spawn({});
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
    });
    await stop(agent);
    expect(allBodies()).not.toContain("hardlinked-env-secret");
  });
});
