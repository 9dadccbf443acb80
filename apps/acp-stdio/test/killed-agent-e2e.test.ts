/**
 * Nothing mm starts outlives it when the editor SIGKILLs it (issue 28): Emacs acp.el ends its agent
 * with `delete-process`, agent-shell when its buffer is killed. On the old code a running command
 * went on with ppid 1, sandboxed too (bwrap and its child stayed, and `mm-sandbox-*` stayed on disk).
 * An MCP server still starting, ignoring the end of its stdin, stayed too. Now the agent's reaper
 * (packages/node/src/shell/reaper.ts) kills every group within a second.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnAgent } from "./spawned-agent.js";
import { bwrapSkipReason } from "./bwrap-probe.js";

const root = mkdtempSync(join(tmpdir(), "mm-killed-"));
const bwrap = (await bwrapSkipReason(root)) === undefined;

let server: FakeOpenAI;
let cwd: string;
beforeEach(async () => {
  server = await startFakeOpenAI();
  cwd = mkdtempSync(join(root, "case-"));
});
afterEach(() => server.close());
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The pids of processes whose command line holds `marker`. */
const running = (marker: string): string[] => {
  try {
    return execFileSync("pgrep", ["-f", marker], { encoding: "utf8" })
      .trim()
      .split("\n")
      .filter((line) => line !== "");
  } catch {
    return [];
  }
};

const gone = async (marker: string, ms: number): Promise<boolean> => {
  for (const start = Date.now(); Date.now() - start < ms; await new Promise((r) => setTimeout(r, 25))) if (running(marker).length === 0) return true;
  return running(marker).length === 0;
};

const rooms = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith("mm-sandbox-"));

describe("an agent killed with SIGKILL", () => {
  it.each([
    ["a plain", "off"],
    ["a sandboxed", "workspace"],
  ] as const)("leaves no process behind: %s command with a background job", async (_what, sandbox) => {
    if (sandbox === "workspace" && !bwrap) return;
    const marker = `${47 + Math.floor(Math.random() * 1000)}.${Date.now() % 1000}`;
    server.enqueue(toolCalls([{ name: "bash", arguments: { command: `sleep ${marker} & sleep ${marker}` } }]), text("never"));
    const config = join(cwd, "mm.json");
    writeFileSync(config, JSON.stringify({ tools: { sandbox } }));
    mkdirSync(join(cwd, "home"));
    const before = rooms();
    const agent = spawnAgent({
      cwd,
      args: ["--config", config],
      env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-x", MM_MODEL: "m", HOME: join(cwd, "home") },
    });
    const started = agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      void client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] }).catch(() => undefined);
      for (let waited = 0; running(`sleep ${marker}`).length < 2 && waited < 10_000; waited += 25) await new Promise((r) => setTimeout(r, 25));
    });
    await started;
    expect(running(`sleep ${marker}`).length).toBeGreaterThanOrEqual(2);
    agent.child.kill("SIGKILL");
    await agent.exited;
    expect(await gone(`sleep ${marker}`, 1000)).toBe(true);
    if (sandbox === "workspace") {
      for (let waited = 0; rooms().length > before.length && waited < 1000; waited += 25) await new Promise((r) => setTimeout(r, 25));
      expect(rooms()).toEqual(before);
    }
  });

  it("leaves no MCP server behind, one still starting that ignores the end of its stdin", async () => {
    const marker = `${61 + Math.floor(Math.random() * 1000)}.${Date.now() % 1000}`;
    const script = join(cwd, "stubborn-server.sh");
    // Never answers initialize, ignores EOF and TERM, and has a child of its own.
    writeFileSync(script, `#!/bin/bash\ntrap '' TERM\nsleep ${marker} &\nexec 0</dev/null\nsleep ${marker}\n`, { mode: 0o755 });
    const agent = spawnAgent({ cwd, env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-x", MM_MODEL: "m", MM_ACP_SURFACE: "full", HOME: cwd } });
    const opened = agent.run(async (client) => {
      void client.request("session/new", { cwd, mcpServers: [{ name: "stubborn", command: script, args: [], env: [] }] }).catch(() => undefined);
      for (let waited = 0; running(`sleep ${marker}`).length < 2 && waited < 10_000; waited += 25) await new Promise((r) => setTimeout(r, 25));
    });
    await opened;
    expect(running(`sleep ${marker}`).length).toBeGreaterThanOrEqual(2);
    agent.child.kill("SIGKILL");
    await agent.exited;
    expect(await gone(`sleep ${marker}`, 1000)).toBe(true);
  });
});

// session/close left a server that never answered initialize running until the 20 s start limit.
describe("session/close", () => {
  it("stops an MCP server still starting at once", async () => {
    const marker = `${83 + Math.floor(Math.random() * 1000)}.${Date.now() % 1000}`;
    const script = join(cwd, "slow-server.sh");
    // Never answers initialize (it reads nothing), and ignores TERM.
    writeFileSync(script, `#!/bin/bash\ntrap '' TERM\nsleep ${marker}\n`, { mode: 0o755 });
    const agent = spawnAgent({ cwd, env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-x", MM_MODEL: "m", MM_ACP_SURFACE: "full", HOME: cwd } });
    const elapsed = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [{ name: "slow", command: script, args: [], env: [] }] });
      expect(running(`sleep ${marker}`).length).toBe(1);
      const t0 = Date.now();
      await client.request("session/close", { sessionId });
      expect(await gone(`sleep ${marker}`, 1000)).toBe(true);
      return Date.now() - t0;
    });
    agent.child.kill("SIGKILL");
    await agent.exited;
    expect(elapsed).toBeLessThan(2000);
  });
});
