/**
 * Issue 38's figure: a scripted development session of 40 tool calls (exploring with ls/cat/rg, git
 * status/diff/log, six `npm test`, a build, ten edits, one `rm -rf build`, one `git push`) through the
 * built binary, under each mode, with a user who takes the broadest "always" the dialog offers (and
 * rejects `git push`). Counted: permission requests, and blanket grants (an "always" that covers every
 * later call of a tool). Printed as a table (docs/what-the-editor-sees.md has it). The sandbox mode
 * needs bubblewrap, as the tests of tools.sandbox do.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";

const SESSION: readonly (readonly [string, Record<string, unknown>])[] = [
  ...["ls", "ls src", "ls test", "ls -la"].map((c) => ["bash", { command: c }] as const),
  ...["cat package.json", "cat src/a.js", "cat src/b.js", "cat README.md", "cat test/a.test.js", "cat src/a.js src/b.js"].map(
    (c) => ["bash", { command: c }] as const,
  ),
  ...["rg TODO", "rg -n add src", "rg --files", "rg -l export", "rg -c a src"].map((c) => ["bash", { command: c }] as const),
  ...["git status", "git diff", "git log --oneline -5", "git status --short", "git diff --stat", "git log -1"].map((c) => ["bash", { command: c }] as const),
  ...["npm test", "npm test -- --watch=false", "npm test 2>&1 | tail -5", "npm test", "npm test -- src/a.js", "npm test"].map(
    (c) => ["bash", { command: c }] as const,
  ),
  ["bash", { command: "npm run build" }],
  ...Array.from({ length: 5 }, (_, i) => ["write_file", { path: `src/new${i}.js`, content: `export const n${i} = ${i};\n` }] as const),
  ...Array.from({ length: 5 }, (_, i) => ["edit_file", { path: `src/new${i}.js`, old_text: `= ${i}`, new_text: `= ${i + 10}` }] as const),
  ["bash", { command: "rm -rf build" }],
  ["bash", { command: "git push origin main" }],
];

let server: FakeOpenAI;
let root: string;
beforeAll(async () => {
  server = await startFakeOpenAI([]);
  root = mkdtempSync(join(tmpdir(), "mm-permission-figure-"));
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** A small project with a git repository, and a stand-in npm on the PATH. */
const project = (name: string): { cwd: string; path: string } => {
  const cwd = join(root, name);
  const bin = join(root, `${name}-bin`);
  mkdirSync(join(cwd, "src"), { recursive: true });
  mkdirSync(join(cwd, "test"), { recursive: true });
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(cwd, "package.json"), '{ "name": "demo" }\n');
  writeFileSync(join(cwd, "README.md"), "# demo\n");
  writeFileSync(join(cwd, "src/a.js"), "export const add = (a, b) => a + b; // TODO\n");
  writeFileSync(join(cwd, "src/b.js"), "export const b = 1;\n");
  writeFileSync(join(cwd, "test/a.test.js"), "import { add } from '../src/a.js';\n");
  writeFileSync(join(bin, "npm"), '#!/bin/sh\n[ "$1" = run ] && mkdir -p build\necho "npm ran: $*"\n');
  chmodSync(join(bin, "npm"), 0o755);
  const git = (...args: string[]) => execFileSync("git", args, { cwd, stdio: "ignore", env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", HOME: root } });
  git("init", "-q");
  git("add", ".");
  git("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "init");
  return { cwd, path: `${bin}:${process.env.PATH ?? ""}` };
};

type Row = { readonly mode: string; readonly requests: number; readonly distinct: number; readonly blanket: number; readonly pushAsked: boolean };

const drive = async (name: string, surface: "spec" | "full", mode: string | undefined, once = false): Promise<Row> => {
  const { cwd, path } = project(name);
  server.enqueue(...SESSION.map(([tool, input]) => toolCalls([{ name: tool, arguments: input }])), text("done"));
  const always = (r: acp.RequestPermissionRequest) => r.options.some((o) => o.kind === "allow_always");
  const agent = spawnAgent({
    cwd,
    env: {
      MM_BASE_URL: server.url,
      OPENAI_API_KEY: "sk",
      MM_ACP_SURFACE: surface,
      XDG_CONFIG_HOME: join(root, "config"),
      XDG_STATE_HOME: join(root, `${name}-state`),
      PATH: path,
    },
    permission: (r) => (r.toolCall.title?.includes("git push") === true ? "reject" : always(r) && !once ? "allow_always" : "allow"),
  });
  await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    if (mode !== undefined) await client.request("session/set_mode", { sessionId, modeId: mode });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "work" }] });
  });
  await stop(agent);
  expect(agent.problems).toEqual([]);
  const chosen = once ? [] : agent.permissions.filter((r) => always(r) && r.toolCall.title?.includes("git push") !== true);
  const names = chosen.map((r) => r.options.find((o) => o.kind === "allow_always")!.name);
  return {
    mode: `${surface} ${mode ?? "ask"}${once ? ", Allow once every time" : ", taking every Always allow"}`,
    requests: agent.permissions.length,
    distinct: new Set(names).size,
    // On the spec surface "Always allow" is for the whole tool: every one chosen is a blanket grant.
    blanket: surface === "spec" ? chosen.length : 0,
    pushAsked: agent.permissions.some((r) => r.toolCall.title?.includes("git push") === true),
  };
};

it("40 calls: requests and blanket grants under each mode", { timeout: 240_000 }, async () => {
  const rows: Row[] = [];
  rows.push(await drive("today-once", "spec", undefined, true));
  rows.push(await drive("today", "spec", undefined));
  for (const mode of ["ask", "edits", "all", "sandbox"]) rows.push(await drive(`full-${mode}`, "full", mode));
  const table = [
    "| mode | permission requests | rules accepted | blanket grants | `git push` asked |",
    "|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.mode} | ${r.requests} | ${r.distinct} | ${r.blanket} | ${r.pushAsked ? "yes" : "no"} |`),
  ].join("\n");
  process.stderr.write(`\n${table}\n`);
  const [once, today, ask, edits, all, sandbox] = rows;
  expect(once!.requests).toBe(SESSION.length);
  expect(today!.blanket).toBeGreaterThan(0);
  // At most one request per distinct rule accepted, plus the ones no rule may cover (git push, rm -rf).
  for (const row of [ask!, edits!]) {
    expect(row.blanket).toBe(0);
    expect(row.pushAsked).toBe(true);
    expect(row.requests).toBeLessThanOrEqual(row.distinct + 2);
  }
  expect(all!.requests).toBe(0);
  // The sandbox mode: nothing asked but git push.
  expect(sandbox!).toMatchObject({ requests: 1, blanket: 0, pushAsked: true });
});
