/**
 * What `mm-acp` writes on stderr, spawned as an editor does: the log levels, an unknown option; and a
 * model served on a port Node's fetch refuses.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeServerKeeper, startFakeOpenAI, status, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { BIN, spawnAgent, stop } from "./spawned-agent.js";

const servers = fakeServerKeeper();
let server: FakeOpenAI;
let cwd: string;
beforeEach(async () => {
  server = await servers.start();
  cwd = mkdtempSync(join(tmpdir(), "mm-logs-"));
});
afterEach(async () => {
  await servers.close();
  rmSync(cwd, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({ MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-test", MM_MODEL: "fake", XDG_CONFIG_HOME: cwd, ...extra });

/** One session, one prompt per text; the agent stopped; its stderr and the prompts' outcomes. */
const session = async (options: { env: Record<string, string>; args?: string[] }, ...prompts: string[]) => {
  const agent = spawnAgent({ env: options.env, cwd, ...(options.args !== undefined ? { args: options.args } : {}) });
  const outcomes = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    const results: unknown[] = [];
    for (const prompt of prompts) {
      results.push(
        await client
          .request("session/prompt", { sessionId, prompt: [{ type: "text", text: prompt }] })
          .catch((e: { code: number; message: string; data?: unknown }) => ({ code: e.code, message: e.message, data: e.data })),
      );
    }
    return results;
  });
  expect((await stop(agent)).code).toBe(0);
  expect(agent.problems).toEqual([]);
  return { stderr: agent.stderr(), outcomes };
};

describe("log levels", () => {
  it("quiet: nothing on stderr for a good turn, the failure of a bad one", async () => {
    server.enqueue(
      toolCalls([{ name: "bash", arguments: { command: "echo hi" } }]),
      text("ok"),
      ...[1, 2, 3].map(() => status(500, undefined, { "retry-after-ms": "5" })),
    );
    const { stderr, outcomes } = await session({ env: env(), args: ["--log-level", "quiet"] }, "fine", "broken");
    expect(outcomes[1]).toMatchObject({ code: -32603, data: { error: expect.stringMatching(/^model server error 500/) } });
    expect(stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^mm-acp: model server answered 500, retry 1\/2 in 5 ms$/),
      expect.stringMatching(/^mm-acp: model server answered 500, retry 2\/2 in 5 ms$/),
      expect.stringMatching(/^\[acp\] turn done: 0 command\(s\) · 0 file op\(s\) · 0 skill\(s\) · failed: model server error 500 after 3 attempts/),
    ]);
  });

  it("MM_LOG_LEVEL=debug: each model request's size and timing, and each step's", async () => {
    server.enqueue(text("hello"));
    const { stderr } = await session({ env: env({ MM_LOG_LEVEL: "debug" }) }, "hi");
    expect(stderr).toContain("[acp] turn done");
    expect(stderr).toMatch(new RegExp(`^mm-acp: model request: \\d+ bytes to ${server.url}/chat/completions; answered 200 after \\d+ ms`, "m"));
    expect(stderr).toMatch(/^mm-acp: model step: first output after \d+ ms, done after \d+ ms; \d+ tokens in, \d+ out/m);
  });

  it("an unknown MM_LOG_LEVEL is one line and exit code 2", async () => {
    const agent = spawnAgent({ env: env({ MM_LOG_LEVEL: "loud" }), cwd });
    expect((await agent.exited).code).toBe(2);
    expect(agent.stderr()).toBe('mm-acp: MM_LOG_LEVEL must be one of quiet, info, debug; got "loud"\n');
  });
});

describe("the command line", () => {
  it("an unknown option prints the usage on stderr, nothing on stdout, and exits 2", async () => {
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [BIN, "--conifg", "x.json"], { env: { PATH: process.env.PATH ?? "", HOME: cwd } }, (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : (child.exitCode ?? 1), stdout, stderr }),
      );
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^mm-acp: unknown option --conifg\n\nmm-acp 0\.11\.0 — Bob[\s\S]*Usage: mm-acp \[--config FILE\] \[--log-level quiet\|info\|debug\]/,
    );
  });
});

describe("a model served on a port Node's fetch refuses", () => {
  // Requests go out on fetch, which refuses the ports browsers block (6000, X11's, among them): the
  // prompt fails at once, without a retry, saying so and what to do.
  it("fails at once with a line that names the port", async (context) => {
    const on6000 = await startFakeOpenAI([text("from port 6000")], { port: 6000 }).catch(() => undefined);
    if (on6000 === undefined) return context.skip(); // the port is taken on this machine
    try {
      const { outcomes, stderr } = await session({ env: env({ MM_BASE_URL: "http://127.0.0.1:6000/v1" }) }, "hi");
      expect(JSON.stringify(outcomes[0])).toContain("refuses port 6000");
      expect(stderr).not.toContain("retry");
      expect(on6000.requests).toHaveLength(0);
    } finally {
      await on6000.close();
    }
  });
});
