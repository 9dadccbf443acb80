/**
 * The ecosystem's conventions for instructions and skills (issue 40), through the built binary:
 *
 * - AGENTS.md is read from the repository root (the nearest ancestor holding `.git`) down to the cwd,
 *   nearest last, each file confined to its own directory; nothing above the root; without a
 *   repository, the cwd's alone. A `.git` that is a link makes no root.
 * - Skills are also found in `.agents/skills` (the project's) and `~/.agents/skills` (the user's); on
 *   a name clash mm's own folder wins, said at start-up.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, text, type FakeOpenAI } from "@mm/fake-openai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnAgent, stop } from "./spawned-agent.js";
import { bwrapSkipReason } from "./bwrap-probe.js";

const root = mkdtempSync(join(tmpdir(), "mm-conventions-"));
const noBwrap = (await bwrapSkipReason(root)) !== undefined;
let server: FakeOpenAI;
let dir: string;
let home: string;
beforeEach(async () => {
  server = await startFakeOpenAI();
  dir = mkdtempSync(join(root, "case-"));
  home = join(dir, "home");
  mkdirSync(home);
});
afterEach(() => server.close());
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (path: string, body: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, body);
};

/** One session in `cwd`, one prompt; the system prompt the model got and the agent. */
const oneTurn = async (cwd: string) => {
  server.enqueue(text("ok"));
  const agent = spawnAgent({
    cwd,
    env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-x", MM_MODEL: "m", HOME: home, XDG_CONFIG_HOME: join(home, ".config") },
  });
  const commands = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })).toEqual({ stopReason: "end_turn" });
    const update = agent.updates.map((u) => u.update).find((u) => u.sessionUpdate === "available_commands_update");
    return update?.sessionUpdate === "available_commands_update" ? update.availableCommands : [];
  });
  await stop(agent);
  expect(agent.problems).toEqual([]);
  const body = server.requests[0]?.body as { messages: { role: string; content: unknown }[] };
  const system = String(body.messages.find((m) => m.role === "system")?.content ?? "");
  return { system, commands, stderr: agent.stderr() };
};

describe("AGENTS.md from the repository root down to the cwd", () => {
  it("reads the root's, each directory's on the way and the cwd's, nearest last, and nothing above the root", async () => {
    const repo = join(dir, "work", "repo");
    const cwd = join(repo, "packages", "app");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(cwd, { recursive: true });
    write(join(dir, "work", "AGENTS.md"), "ABOVE-THE-REPOSITORY rule\n");
    write(join(repo, "AGENTS.md"), "ROOT-RULE: use pnpm\n");
    write(join(repo, "packages", "AGENTS.md"), "PACKAGES-RULE: no default exports\n");
    write(join(cwd, "AGENTS.md"), "APP-RULE: tabs, not spaces\n");
    const { system } = await oneTurn(cwd);
    const at = (needle: string) => system.indexOf(needle);
    expect(at("ROOT-RULE")).toBeGreaterThan(-1);
    expect(at("PACKAGES-RULE")).toBeGreaterThan(at("ROOT-RULE"));
    expect(at("APP-RULE")).toBeGreaterThan(at("PACKAGES-RULE"));
    expect(system).not.toContain("ABOVE-THE-REPOSITORY");
    // Each under its path, so the model knows which directory a rule is for.
    expect(system).toContain(`### ${join(repo, "packages", "AGENTS.md")}\nPACKAGES-RULE`);
  });

  it.skipIf(noBwrap)("with the sandbox on, the same files are read, and a link out of its directory is not followed", async () => {
    mkdirSync(join(home, ".config", "mm"), { recursive: true });
    writeFileSync(join(home, ".config", "mm", "config.json"), JSON.stringify({ tools: { sandbox: "workspace" } }));
    const repo = join(dir, "repo");
    const cwd = join(repo, "app");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(cwd, { recursive: true });
    write(join(repo, "AGENTS.md"), "SANDBOXED-ROOT-RULE\n");
    write(join(dir, "outside.md"), "sekrit-outside\n");
    symlinkSync(join(dir, "outside.md"), join(cwd, "AGENTS.md"));
    const { system, stderr } = await oneTurn(cwd);
    expect(stderr).toContain("sandbox");
    expect(system).toContain("SANDBOXED-ROOT-RULE");
    // (Under /tmp the link's target is the sandbox's private /tmp, as a command would see it: not there.)
    expect(system).not.toContain("sekrit-outside");
  });

  it("a worktree's `.git` file makes a root too; without any repository, the cwd's alone is read", async () => {
    const worktree = join(dir, "wt");
    const cwd = join(worktree, "src");
    mkdirSync(cwd, { recursive: true });
    write(join(worktree, ".git"), "gitdir: /elsewhere/.git/worktrees/wt\n");
    write(join(worktree, "AGENTS.md"), "WORKTREE-RULE\n");
    write(join(cwd, "AGENTS.md"), "SRC-RULE\n");
    expect((await oneTurn(cwd)).system).toMatch(/WORKTREE-RULE[\s\S]*SRC-RULE/);

    const loose = join(dir, "loose", "sub");
    mkdirSync(loose, { recursive: true });
    write(join(dir, "loose", "AGENTS.md"), "PARENT-WITHOUT-GIT\n");
    write(join(loose, "AGENTS.md"), "LOOSE-RULE\n");
    server.requests.length = 0;
    const { system } = await oneTurn(loose);
    expect(system).toContain("## Project instructions (AGENTS.md)\nLOOSE-RULE");
    expect(system).not.toContain("PARENT-WITHOUT-GIT");
  });

  it("each file is confined to its own directory: links out of it are refused and named, the others read", async () => {
    const repo = join(dir, "repo");
    const cwd = join(repo, "pkg");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "docs"), { recursive: true });
    mkdirSync(cwd, { recursive: true });
    write(join(dir, "secret.txt"), "sekrit-outside-the-repository\n");
    write(join(repo, "docs", "pkg-notes.md"), "sekrit-of-another-directory\n");
    write(join(repo, "docs", "rules.md"), "ROOT-LINKED-RULE\n");
    symlinkSync("docs/rules.md", join(repo, "AGENTS.md"));
    symlinkSync("../docs/pkg-notes.md", join(cwd, "AGENTS.md"));
    const { system, stderr } = await oneTurn(cwd);
    expect(system).toContain("ROOT-LINKED-RULE");
    expect(system).not.toContain("sekrit-of-another-directory");
    expect(stderr).toContain(`AGENTS.md not read, the session goes on without it: refused: it leads out of ${cwd}`);

    rmSync(join(repo, "AGENTS.md"));
    symlinkSync("../secret.txt", join(repo, "AGENTS.md"));
    rmSync(join(cwd, "AGENTS.md"));
    write(join(cwd, "AGENTS.md"), "PKG-RULE\n");
    server.requests.length = 0;
    const second = await oneTurn(cwd);
    expect(second.system).toContain("PKG-RULE");
    expect(second.system).not.toContain("sekrit-outside-the-repository");
    expect(second.stderr).toContain(`refused: it leads out of ${repo}`);
  });

  it("a `.git` that is a link makes no root: the walk goes on to the real repository above", async () => {
    const top = join(dir, "top");
    const cwd = join(top, "mid");
    mkdirSync(join(top, ".git"), { recursive: true });
    mkdirSync(cwd, { recursive: true });
    symlinkSync(join(top, ".git"), join(cwd, ".git"));
    write(join(top, "AGENTS.md"), "TOP-RULE\n");
    write(join(cwd, "AGENTS.md"), "MID-RULE\n");
    expect((await oneTurn(cwd)).system).toMatch(/TOP-RULE[\s\S]*MID-RULE/);
  });
});

describe("skills in the shared Agent Skills folders", () => {
  const skill = (folder: string, name: string, description: string) =>
    write(join(folder, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\nDo it.\n`);

  it("finds .agents/skills and ~/.agents/skills, and mm's own folder wins a name clash, said at start-up", async () => {
    const cwd = join(dir, "project");
    mkdirSync(cwd, { recursive: true });
    skill(join(home, ".agents", "skills"), "user-shared", "A skill of the user's shared folder.");
    skill(join(cwd, ".agents", "skills"), "project-shared", "A skill of the project's shared folder.");
    skill(join(cwd, ".agents", "skills"), "deploy", "Deploy as the shared folder says.");
    skill(join(cwd, ".mm", "skills"), "deploy", "Deploy as mm's folder says.");
    const { system, commands, stderr } = await oneTurn(cwd);
    const names = commands.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(["user-shared", "project-shared", "deploy"]));
    expect(commands.find((c) => c.name === "deploy")?.description).toBe("Deploy as mm's folder says.");
    expect(system).toContain("- user-shared: A skill of the user's shared folder.");
    expect(system).toContain("- deploy: Deploy as mm's folder says.");
    expect(system).not.toContain("Deploy as the shared folder says.");
    expect(stderr).toContain(`skill ${join(cwd, ".agents", "skills", "deploy")}: shadowed by ${join(cwd, ".mm", "skills", "deploy")}`);
    expect(stderr).toContain("mm-acp: 3 skill(s)");
  });
});
