/**
 * The change tracker never writes through a link a command planted in `.git` (issue 36, attacker's
 * review), through the built binary under bubblewrap. `.git` is in the sandbox's writable cwd: a
 * sandboxed command replaced `.git/objects` (or one of its fan-out directories) with a link to a
 * directory outside the sandbox, and on the old code the tracker's `git add`, on the host, wrote the
 * project's objects there. Now the object store is checked before every batch of git steps: the
 * call's changes are not tracked, and nothing is written outside.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnAgent, stop } from "./spawned-agent.js";
import { bwrapSkipReason } from "./bwrap-probe.js";

const root = mkdtempSync(join(tmpdir(), "mm-tracker-objects-"));
const skip = await bwrapSkipReason(root);

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

/** Every path under `dir`, relative. */
const listing = (dir: string): string[] => readdirSync(dir, { recursive: true }).map(String).sort();

describe.skipIf(skip !== undefined)("the change tracker and links planted in .git", () => {
  it.each([
    ["the object store", (outside: string) => `mv .git/objects .git/objs && ln -s ${outside} .git/objects`],
    ["a fan-out directory", (outside: string) => `for d in $(printf '%02x ' $(seq 0 255)); do rm -rf .git/objects/$d; ln -s ${outside} .git/objects/$d; done`],
  ])("writes nothing out of the sandbox when a sandboxed command links %s out of .git", async (_what, plant) => {
    writeFileSync(join(cwd, "a.txt"), "a\n");
    git("init", "-q");
    git("add", "a.txt");
    git("commit", "-qm", "init");
    const outside = join(home, "outside");
    mkdirSync(outside);
    const agent = await runTurn(["echo first > a.txt", plant(outside), "echo planted > a.txt && echo new > n.txt"], "workspace");
    expect(readFileSync(join(cwd, "n.txt"), "utf8")).toBe("new\n");
    expect(listing(outside)).toEqual([]);
    expect(agent.problems).toEqual([]);
  });
});
