/**
 * A hidden file renamed or linked under a name that is not hidden keeps its content out of what the
 * change tracker hands on (issue 36, attacker's review), through the built binary with the sandbox off
 * and `tools.hidden: [".env"]`. A careless `mv .env .env.old` (or `ln .env x`): on the old code the
 * "new" file's whole diff, the secret, went to the editor, the model and the session file. Now the
 * tracker knows it by its inode (taken before the command) and names it without content. A copy
 * (`cp .env x`) is another file, indistinguishable: documented, not tested here.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnAgent, stop } from "./spawned-agent.js";

const root = mkdtempSync(join(tmpdir(), "mm-tracker-hidden-moved-"));

const SECRET = "STRIPE_KEY=sk_live_hidden_value_4242\n";
const MARK = "sk_live_hidden_value_4242";

let server: FakeOpenAI;
let cwd: string;
let home: string;
beforeEach(async () => {
  server = await startFakeOpenAI();
  const dir = mkdtempSync(join(root, "case-"));
  cwd = join(dir, "project");
  home = join(dir, "home");
  for (const d of [cwd, home]) mkdirSync(d);
});
afterEach(() => server.close());
afterAll(() => rmSync(root, { recursive: true, force: true }));

const git = (...args: string[]): string =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8" });

/** Every session file's text. */
const sessionFiles = (): string =>
  readdirSync(join(cwd, ".mm/sessions"))
    .filter((name) => name.endsWith(".json"))
    .map((name) => readFileSync(join(cwd, ".mm/sessions", name), "utf8"))
    .join("\n");

/** One turn, `.env` hidden, sessions on: the model runs `commands` one call each (sandboxed unless `sandbox` is "off"). */
const runTurn = async (commands: readonly string[], sandbox: "workspace" | "off") => {
  server.enqueue(...commands.map((command) => toolCalls([{ name: "bash", arguments: { command } }])), text("done"));
  const config = join(home, "mm.json");
  writeFileSync(config, JSON.stringify({ sessions: { enabled: true }, tools: { sandbox, hidden: [".env"] } }));
  const agent = spawnAgent({
    cwd,
    args: ["--config", config],
    env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-x", MM_MODEL: "m", HOME: home, XDG_STATE_HOME: join(home, "state") },
  });
  await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
  });
  await stop(agent);
  return agent;
};

/** The diffs the editor was shown, as one text. */
const shownDiffs = (agent: ReturnType<typeof spawnAgent>): string =>
  JSON.stringify(agent.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call_update" || u.sessionUpdate === "tool_call"));

describe("a hidden file under another name (sandbox off)", () => {
  it.each([
    ["mv .env .env.old", ".env.old", true],
    ["mv .env .env.old", ".env.old", false],
    ["ln .env linked.txt", "linked.txt", true],
    ["ln .env linked.txt", "linked.txt", false],
  ] as const)("`%s`: %s is named without its content (in git: %s)", async (command, name, inGit) => {
    writeFileSync(join(cwd, ".env"), SECRET);
    writeFileSync(join(cwd, "a.txt"), "a\n");
    if (inGit) {
      git("init", "-q");
      git("add", "a.txt");
      git("commit", "-qm", "init");
    }
    const agent = await runTurn([`${command} && echo b > a.txt`], "off");
    expect(readFileSync(join(cwd, name), "utf8")).toBe(SECRET);
    const diffs = shownDiffs(agent);
    expect(diffs).not.toContain(MARK);
    expect(sessionFiles()).not.toContain(MARK);
    expect(diffs).toContain(join(cwd, name));
    expect(diffs).toContain("a hidden file under another name");
    expect(diffs).toContain('"newText":"b\\n"');
  });
});
