/**
 * Permissions users can trust (issue 38), through the built binary. The spec surface keeps its three
 * options and their effects, the names saying what "Always allow" covers. On the full surface a bash
 * dialog offers "Always allow `<rule>` in this project": the rule `npm test` lets `npm test -- --watch`
 * run unasked and still asks for `rm x`, `npm test && rm -rf x` and `npm test | sh`; a new process in
 * the same project runs `npm test` unasked, another project asks. On the old code "Always allow" was
 * granted by tool name: every later command of the session ran unasked.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop, type SpawnOptions } from "./spawned-agent.js";

let server: FakeOpenAI;
let root: string;
let project: string;
let state: string;
let bin: string;

beforeEach(async () => {
  server = await startFakeOpenAI([]);
  root = mkdtempSync(join(tmpdir(), "mm-permission-rules-"));
  project = join(root, "project");
  state = join(root, "state");
  bin = join(root, "bin");
  for (const dir of [project, state, bin, join(root, "config/mm")]) mkdirSync(dir, { recursive: true });
  // A stand-in npm: the test is about what is asked, not about npm.
  writeFileSync(join(bin, "npm"), '#!/bin/sh\necho "npm ran: $*"\n');
  chmodSync(join(bin, "npm"), 0o755);
});
afterEach(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const env = (surface: "spec" | "full"): Record<string, string> => ({
  MM_BASE_URL: server.url,
  OPENAI_API_KEY: "sk-test",
  MM_ACP_SURFACE: surface,
  XDG_CONFIG_HOME: join(root, "config"),
  XDG_STATE_HOME: state,
  PATH: `${bin}:${process.env.PATH ?? ""}`,
});

const bash = (command: string) => toolCalls([{ name: "bash", arguments: { command } }]);
const say = (sessionId: string, words: string) => ({ sessionId, prompt: [{ type: "text" as const, text: words }] });

/** One turn in a new session of `cwd`: the model runs `commands` one per step, then answers. */
const turn = async (commands: readonly string[], cwd: string, options: SpawnOptions) => {
  server.enqueue(...commands.map(bash), text("done"));
  const agent = spawnAgent({ cwd, ...options });
  await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    await client.request("session/prompt", say(sessionId, "work"));
  });
  await stop(agent);
  expect(agent.problems).toEqual([]);
  return agent;
};

const titles = (requests: readonly acp.RequestPermissionRequest[]) => requests.map((r) => r.toolCall.title?.replace(/^bash: /, ""));
const outputs = (agent: { updates: acp.SessionNotification[] }) =>
  agent.updates
    .map((u) => u.update)
    .filter((u): u is acp.SessionUpdate & { sessionUpdate: "tool_call_update" } => u.sessionUpdate === "tool_call_update" && u.status !== "in_progress")
    .map((u) => ({ status: u.status, output: (u.rawOutput as { output?: string } | undefined)?.output ?? "" }));

describe("permission rules", () => {
  it("spec surface: the three options, their names saying what they cover; Always allow still covers the tool for the session", async () => {
    const agent = await turn(["npm test", "rm -f nothing-here"], project, { env: env("spec"), permission: () => "allow_always" });
    expect(agent.permissions).toHaveLength(1);
    expect(agent.permissions[0]!.options).toEqual([
      { optionId: "allow", name: "Allow", kind: "allow_once" },
      { optionId: "allow_always", name: "Always allow bash — every command, this session", kind: "allow_always" },
      { optionId: "reject", name: "Reject", kind: "reject_once" },
    ]);
  });

  it("full surface: a rule for `npm test` covers `npm test -- --watch`, not `rm x`, `npm test && rm -rf x` or `npm test | sh`", async () => {
    const agent = await turn(["npm test", "npm test -- --watch", "rm x", "npm test && rm -rf x", "npm test | sh"], project, {
      env: env("full"),
      permission: (request) => (request.toolCall.title === "bash: npm test" ? "allow_always" : "reject"),
    });
    expect(titles(agent.permissions)).toEqual(["npm test", "rm x", "npm test && rm -rf x", "npm test | sh"]);
    expect(agent.permissions[0]!.options).toEqual([
      { optionId: "allow", name: "Allow once", kind: "allow_once" },
      { optionId: "allow_always", name: "Always allow `npm test` in this project", kind: "allow_always" },
      { optionId: "reject", name: "Reject", kind: "reject_once" },
    ]);
    // The offer for a compound command is the rule of its first command no rule covers yet.
    expect(agent.permissions[2]!.options.map((o) => o.name)).toEqual(["Allow once", "Always allow `rm` in this project", "Reject"]);
    expect(outputs(agent).map((o) => o.status)).toEqual(["completed", "completed", "failed", "failed", "failed"]);
    expect(outputs(agent)[1]!.output).toContain("npm ran: test -- --watch");
    expect(agent.stderr()).toContain('rule "npm test" remembered for');
    const saved = JSON.parse(readFileSync(join(state, "mm/permissions.json"), "utf8")) as { projects: Record<string, string[]> };
    expect(saved.projects).toEqual({ [project]: ["npm test"] });

    // A new process in the same project: remembered. Another project: asked.
    const again = await turn(["npm test"], project, { env: env("full"), permission: () => "reject" });
    expect(again.permissions).toEqual([]);
    expect(outputs(again)[0]!.output).toContain("npm ran: test");
    const other = join(root, "other");
    mkdirSync(other);
    const elsewhere = await turn(["npm test"], other, { env: env("full"), permission: () => "reject" });
    expect(titles(elsewhere.permissions)).toEqual(["npm test"]);
  });

  it("full surface: edits in this project, paths inside the cwd only; a write outside still asks", async () => {
    const outside = join(root, "outside.txt");
    server.enqueue(
      toolCalls([{ name: "write_file", arguments: { path: "a.txt", content: "a" } }]),
      toolCalls([{ name: "edit_file", arguments: { path: "a.txt", old_text: "a", new_text: "b" } }]),
      toolCalls([{ name: "write_file", arguments: { path: "sub/c.txt", content: "c" } }]),
      toolCalls([{ name: "write_file", arguments: { path: outside, content: "x" } }]),
      text("done"),
    );
    const agent = spawnAgent({
      cwd: project,
      env: env("full"),
      permission: (r) => (r.toolCall.title?.includes("outside") === true ? "reject" : "allow_always"),
    });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd: project, mcpServers: [] });
      await client.request("session/prompt", say(sessionId, "edit"));
    });
    await stop(agent);
    expect(agent.permissions.map((r) => r.options.map((o) => o.name))).toEqual([
      ["Allow once", "Always allow edits in this project", "Reject"],
      ["Allow once", "Reject"],
    ]);
    expect(readFileSync(join(project, "sub/c.txt"), "utf8")).toBe("c");
    expect(agent.problems).toEqual([]);
  });

  it("full surface: the user's deny is never run nor asked, ask always asks, git push is asked whatever allows it; a project's allow is refused", async () => {
    writeFileSync(join(root, "config/mm/config.json"), JSON.stringify({ permissions: { allow: ["npm", "git"], ask: ["npm test"], deny: ["rm"] } }), {
      flag: "w",
    });
    mkdirSync(join(project, ".mm"), { recursive: true });
    writeFileSync(join(project, ".mm/config.json"), JSON.stringify({ permissions: { allow: ["curl"] } }));
    const agent = await turn(["rm -rf x", "npm run lint", "npm test", "git status", "git push origin main", "curl -s http://127.0.0.1:9/"], project, {
      env: env("full"),
      permission: () => "reject",
    });
    expect(titles(agent.permissions)).toEqual(["npm test", "git push origin main", "curl -s http://127.0.0.1:9/"]);
    expect(agent.permissions[1]!.options.map((o) => o.name)).toEqual(["Allow once", "Reject"]);
    expect(outputs(agent)[0]).toEqual({ status: "failed", output: "[command denied by the user's rules]" });
    expect(outputs(agent)[1]!.output).toContain("npm ran: run lint");
    expect(agent.stderr()).toContain(
      `${join(project, ".mm/config.json")}: permissions.allow ignored: a project's configuration may add ask and deny rules, never allow ones`,
    );
  });

  it("full surface: /permissions lists the rules with their origin and forgets them; a rule holds after session/load and session/resume in new processes", async () => {
    writeFileSync(join(root, "config/mm/config.json"), JSON.stringify({ sessions: { enabled: true }, permissions: { deny: ["dd"] } }));
    server.enqueue(bash("npm test"), text("done"), bash("npm test"), text("done"));
    const agent = spawnAgent({ cwd: project, env: env("full"), permission: () => "allow_always" });
    const { sessionId, listed, forgotten } = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd: project, mcpServers: [] });
      await client.request("session/prompt", say(sessionId, "test"));
      const before = agent.textOf(sessionId).length;
      await client.request("session/prompt", say(sessionId, "/permissions"));
      const listed = agent.textOf(sessionId).slice(before);
      const mid = agent.textOf(sessionId).length;
      await client.request("session/prompt", say(sessionId, "/permissions forget 1"));
      const forgotten = agent.textOf(sessionId).slice(mid);
      await client.request("session/prompt", say(sessionId, "test again"));
      return { sessionId, listed, forgotten };
    });
    await stop(agent);
    const commands = agent.updates.map((u) => u.update).find((u) => u.sessionUpdate === "available_commands_update") as {
      availableCommands: { name: string }[];
    };
    expect(commands.availableCommands.map((c) => c.name)).toContain("permissions");
    expect(listed).toContain(`Permission rules in force for ${project}:`);
    expect(listed).toContain(`Remembered for this project (${join(state, "mm/permissions.json")}):\n  1. allow \`npm test\``);
    expect(listed).toContain("deny: `dd`");
    expect(listed).toContain("git push in every form");
    expect(forgotten).toBe(`🔓 Forgotten for ${project}: \`npm test\`.`);
    // Forgotten, it asks again (chosen again here: remembered for the next process).
    expect(titles(agent.permissions)).toEqual(["npm test", "npm test"]);
    expect(agent.problems).toEqual([]);

    server.enqueue(bash("npm test -- --ci"), text("done"));
    const loaded = spawnAgent({ cwd: project, env: env("full"), permission: () => "reject" });
    await loaded.run(async (client) => {
      await client.request("session/load", { sessionId, cwd: project, mcpServers: [] });
      await client.request("session/prompt", say(sessionId, "once more"));
    });
    await stop(loaded);
    expect(loaded.permissions).toEqual([]);
    expect(outputs(loaded).at(-1)!.output).toContain("npm ran: test -- --ci");
    expect(loaded.problems).toEqual([]);

    server.enqueue(bash("npm test -- --resumed"), text("done"));
    const resumed = spawnAgent({ cwd: project, env: env("full"), permission: () => "reject" });
    await resumed.run(async (client) => {
      await client.request("session/resume", { sessionId, cwd: project, mcpServers: [] });
      await client.request("session/prompt", say(sessionId, "and again"));
    });
    await stop(resumed);
    expect(resumed.permissions).toEqual([]);
    expect(outputs(resumed).at(-1)!.output).toContain("npm ran: test -- --resumed");
    expect(resumed.problems).toEqual([]);
  });

  it("full surface, sandbox mode: a confined command runs unasked (and stays confined), file tools inside the cwd too; git push is still asked", async () => {
    const marker = join(root, "outside-marker");
    server.enqueue(
      bash("echo made > inside.txt && cat inside.txt"),
      bash(`touch ${marker} && echo touched`),
      toolCalls([{ name: "write_file", arguments: { path: "w.txt", content: "w" } }]),
      bash("git push origin main"),
      text("done"),
    );
    const agent = spawnAgent({ cwd: project, env: env("full"), permission: () => "reject" });
    const modes = await agent.run(async (client) => {
      const { sessionId, modes } = await client.request("session/new", { cwd: project, mcpServers: [] });
      await client.request("session/set_mode", { sessionId, modeId: "sandbox" });
      await client.request("session/prompt", say(sessionId, "work"));
      return modes;
    });
    await stop(agent);
    expect(modes?.availableModes.map((m) => m.id)).toEqual(["ask", "edits", "all", "sandbox"]);
    expect(modes?.availableModes.at(-1)?.name).toContain("Sandbox");
    expect(titles(agent.permissions)).toEqual(["git push origin main"]);
    expect(outputs(agent)[0]!.output).toContain("made");
    // Under the sandbox's private /tmp: touched in there, never on the host.
    expect(existsSync(marker)).toBe(false);
    expect(readFileSync(join(project, "w.txt"), "utf8")).toBe("w");
    expect(agent.problems).toEqual([]);
  });

  it("full surface: where bubblewrap cannot run, the sandbox mode is not offered and the log says why", async () => {
    const noBwrap = join(root, "no-bwrap");
    mkdirSync(noBwrap);
    const agent = spawnAgent({ cwd: project, env: { ...env("full"), PATH: noBwrap } });
    const modes = await agent.run(async (client) => (await client.request("session/new", { cwd: project, mcpServers: [] })).modes);
    await stop(agent);
    expect(modes?.availableModes.map((m) => m.id)).toEqual(["ask", "edits", "all"]);
    expect(agent.stderr()).toContain("the sandbox permission mode is not offered:");
  });

  it("full surface: inside the project means where a path really lands — a link planted in it does not carry a rule out", async () => {
    const outsideDir = join(root, "outside");
    mkdirSync(outsideDir);
    symlinkSync(outsideDir, join(project, "out-link"));
    server.enqueue(
      toolCalls([{ name: "write_file", arguments: { path: "a.txt", content: "a" } }]),
      toolCalls([{ name: "write_file", arguments: { path: "out-link/x.txt", content: "x" } }]),
      bash("npm test"),
      bash("npm test > out-link/log.txt"),
      text("done"),
    );
    const agent = spawnAgent({
      cwd: project,
      env: env("full"),
      permission: (r) => (r.toolCall.title?.includes("out-link") === true ? "reject" : "allow_always"),
    });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd: project, mcpServers: [] });
      await client.request("session/prompt", say(sessionId, "work"));
    });
    await stop(agent);
    expect(titles(agent.permissions)).toEqual(["write_file: a.txt", "write_file: out-link/x.txt", "npm test", "npm test > out-link/log.txt"]);
    expect(existsSync(join(outsideDir, "x.txt"))).toBe(false);
    expect(existsSync(join(outsideDir, "log.txt"))).toBe(false);
    expect(agent.problems).toEqual([]);
  });
});
