/**
 * Attacks on the permission rules (issue 38's review), through the built binary: a model that has a
 * rule for a harmless program tries to run something else unasked. What rides after a here-document's
 * word (`cat <<EOF && touch x`, `cat <<EOF | sh`), a `find -exec`, an `env` named by its path, `cp -t`
 * outside the project are asked; in the sandbox mode `git push` by a path, an expansion or with options
 * before `publish` is asked like `git push`.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";

let server: FakeOpenAI;
let root: string;
let project: string;
let bin: string;

beforeEach(async () => {
  server = await startFakeOpenAI([]);
  root = mkdtempSync(join(tmpdir(), "mm-permission-attacks-"));
  project = join(root, "project");
  bin = join(root, "bin");
  for (const dir of [project, join(root, "state"), bin, join(root, "config/mm")]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(bin, "npm"), '#!/bin/sh\necho "npm ran: $*"\n');
  chmodSync(join(bin, "npm"), 0o755);
});
afterEach(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const env = (): Record<string, string> => ({
  MM_BASE_URL: server.url,
  OPENAI_API_KEY: "sk-test",
  MM_ACP_SURFACE: "full",
  XDG_CONFIG_HOME: join(root, "config"),
  XDG_STATE_HOME: join(root, "state"),
  PATH: `${bin}:${process.env.PATH ?? ""}`,
});

const bash = (command: string) => toolCalls([{ name: "bash", arguments: { command } }]);
const asked = (requests: readonly acp.RequestPermissionRequest[]) => requests.map((r) => (r.toolCall.rawInput as { command?: string } | undefined)?.command);

const run = async (commands: readonly string[], mode?: string) => {
  server.enqueue(...commands.map(bash), text("done"));
  const agent = spawnAgent({ cwd: project, env: env(), permission: () => "reject" });
  await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd: project, mcpServers: [] });
    if (mode !== undefined) await client.request("session/set_mode", { sessionId, modeId: mode });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "work" }] });
  });
  await stop(agent);
  expect(agent.problems).toEqual([]);
  return agent;
};

describe("permission rules under attack", () => {
  it("a rule for cat, find, cp or /usr/bin/env covers only that program's own work", async () => {
    writeFileSync(join(root, "config/mm/config.json"), JSON.stringify({ permissions: { allow: ["cat", "find", "cp", "/usr/bin/env"] } }));
    writeFileSync(join(project, "a.txt"), "a");
    const attacks = [
      "cat <<EOF && touch pwned-and\nhi\nEOF",
      "cat <<EOF | sh\ntouch pwned-sh\nEOF",
      `cat <<EOF > ${join(root, "pwned-redirect")}\nhi\nEOF`,
      "find . -maxdepth 0 -exec touch pwned-find ;",
      "/usr/bin/env touch pwned-env",
      `cp -t ${root} a.txt`,
    ];
    const agent = await run(["cat <<EOF\nhi\nEOF", "find . -name a.txt", ...attacks]);
    expect(asked(agent.permissions)).toEqual(attacks);
    for (const name of ["pwned-and", "pwned-sh", "pwned-find", "pwned-env"]) expect(existsSync(join(project, name)), name).toBe(false);
    expect(existsSync(join(root, "pwned-redirect"))).toBe(false);
    expect(existsSync(join(root, "a.txt"))).toBe(false);
  });

  it("a cd before a redirection moves where it writes: a rule for cd and echo does not write outside the project", async () => {
    writeFileSync(join(root, "config/mm/config.json"), JSON.stringify({ permissions: { allow: ["cd", "echo"] } }));
    mkdirSync(join(project, "sub"));
    const agent = await run(["cd .. && echo x > pwned-cd", "cd sub; echo x > ../kept"]);
    expect(asked(agent.permissions)).toEqual(["cd .. && echo x > pwned-cd"]);
    expect(existsSync(join(root, "pwned-cd"))).toBe(false);
    expect(existsSync(join(project, "kept"))).toBe(true);
  });

  it("a session in $HOME: edits in this project never cover mm's own config and remembered rules", async () => {
    const home = join(root, "home");
    mkdirSync(join(home, ".config/mm"), { recursive: true });
    writeFileSync(join(home, ".config/mm/config.json"), JSON.stringify({ permissions: { allow: ["edits", "echo"] } }));
    const grant = JSON.stringify({ version: 1, projects: { [home]: ["touch"] } });
    server.enqueue(
      toolCalls([{ name: "write_file", arguments: { path: ".local/state/mm/permissions.json", content: grant } }]),
      toolCalls([{ name: "write_file", arguments: { path: ".config/mm/config.json", content: JSON.stringify({ permissions: { allow: ["touch"] } }) } }]),
      bash("echo '{}' > .config/mm/config.json"),
      toolCalls([{ name: "write_file", arguments: { path: "notes.txt", content: "n" } }]),
      text("done"),
    );
    const homeEnv = { ...env(), HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_STATE_HOME: join(home, ".local/state") };
    const agent = spawnAgent({ cwd: home, env: homeEnv, permission: () => "reject" });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd: home, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "work" }] });
    });
    await stop(agent);
    expect(agent.permissions).toHaveLength(3);
    expect(existsSync(join(home, ".local/state/mm/permissions.json"))).toBe(false);
    expect(JSON.parse(readFileSync(join(home, ".config/mm/config.json"), "utf8"))).toEqual({ permissions: { allow: ["edits", "echo"] } });
    expect(readFileSync(join(home, "notes.txt"), "utf8")).toBe("n");
  });

  it("sandbox mode in $HOME: a command cannot create the remembered rules file before mm does", async () => {
    const home = join(root, "home");
    mkdirSync(home);
    const grant = JSON.stringify({ version: 1, projects: { [home]: ["touch"] } });
    const write = `mkdir -p .local/state/mm; awk 'BEGIN { print ARGV[1] > ".local/state/mm/permissions.json" }' '${grant}'; echo wrote`;
    server.enqueue(bash(write), text("done"));
    const homeEnv = { ...env(), HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_STATE_HOME: join(home, ".local/state") };
    const agent = spawnAgent({ cwd: home, env: homeEnv, permission: () => "reject" });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd: home, mcpServers: [] });
      await client.request("session/set_mode", { sessionId, modeId: "sandbox" });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "work" }] });
    });
    await stop(agent);
    expect(existsSync(join(home, ".local/state/mm/permissions.json"))).toBe(false);
  });

  it("sandbox mode with tools.sandbox off: a write outside the project the rules cannot see is still confined", async () => {
    const agent = await run([`awk 'BEGIN { print "x" > "../escaped" }'; echo tried`], "sandbox");
    expect(agent.permissions).toEqual([]);
    expect(existsSync(join(root, "escaped"))).toBe(false);
  });

  it("mode all: a deny rule holds for the program named by its path", async () => {
    writeFileSync(join(root, "config/mm/config.json"), JSON.stringify({ permissions: { deny: ["touch"] } }));
    const agent = await run(["/usr/bin/touch denied-by-path", "touch denied-by-name"], "all");
    expect(agent.permissions).toEqual([]);
    expect(existsSync(join(project, "denied-by-path"))).toBe(false);
    expect(existsSync(join(project, "denied-by-name"))).toBe(false);
  });

  it("sandbox mode: git push by its path or through an expansion, npm publish after an option, are asked like git push", async () => {
    const attacks = ["/usr/bin/git push origin main", "${G:-git} push origin main", "git ${P:-push} origin main", "npm --dry-run=false publish"];
    const agent = await run(["echo confined", ...attacks], "sandbox");
    expect(asked(agent.permissions)).toEqual(attacks);
  });
});
