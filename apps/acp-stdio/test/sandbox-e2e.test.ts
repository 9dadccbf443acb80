/**
 * `tools.sandbox` end to end: the built mm-acp, spawned with a temporary HOME holding a fake SSH key,
 * runs the same attacks under "workspace" and "off" — a write in the cwd, a write in $HOME, reading
 * ~/.ssh/id_rsa, the agent's environment through /proc/$PPID/environ, a TCP connection to a listener
 * outside, and the file tools at the same places. Sandboxed, all but the first fail with a hint;
 * off, all succeed. Without bubblewrap (or user namespaces), nothing runs and the user is told why.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type * as acp from "@agentclientprotocol/sdk";
import { startFakeOpenAI, tcpGreeter, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";
import { bwrapSkipReason } from "./bwrap-probe.js";

const KEY = "sk-sandbox-e2e-4f5e6d";
const SECRET = "-----BEGIN FAKE PRIVATE KEY-----";

const root = mkdtempSync(join(tmpdir(), "mm-sandbox-e2e-"));
const skip = await bwrapSkipReason(root);
if (skip !== undefined) console.error(`sandbox e2e (bwrap) skipped: ${skip}`);

let outside: Awaited<ReturnType<typeof tcpGreeter>>;
let port = 0;
let server: FakeOpenAI;
let home: string;
let cwd: string;

beforeAll(async () => {
  outside = await tcpGreeter("hello from outside\n");
  port = outside.port;
});
afterAll(() => {
  outside.close();
  rmSync(root, { recursive: true, force: true });
});
beforeEach(async () => {
  server = await startFakeOpenAI();
  const dir = mkdtempSync(join(root, "case-"));
  home = join(dir, "home");
  cwd = join(dir, "project");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  mkdirSync(cwd);
  writeFileSync(join(home, ".ssh/id_rsa"), `${SECRET}\n`);
});
afterEach(async () => {
  await server.close();
});

const configFor = (sandbox: "off" | "workspace"): string => {
  const path = join(cwd, "mm-config.json");
  writeFileSync(path, JSON.stringify({ tools: { sandbox } }));
  return path;
};

const env = (extra: Record<string, string> = {}) => ({ MM_BASE_URL: server.url, OPENAI_API_KEY: KEY, MM_MODEL: "fake-model", HOME: home, ...extra });

const ATTACKS = () => [
  { name: "bash", arguments: { command: "echo ok > in-cwd.txt && cat in-cwd.txt" } },
  { name: "bash", arguments: { command: "echo planted > $HOME/planted.txt" } },
  { name: "bash", arguments: { command: "cat ~/.ssh/id_rsa" } },
  { name: "bash", arguments: { command: "tr '\\0' '\\n' < /proc/$PPID/environ | grep ^OPENAI_API_KEY=" } },
  { name: "bash", arguments: { command: `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3` } },
  { name: "read_file", arguments: { path: "~/.ssh/id_rsa" } },
  { name: "write_file", arguments: { path: join(home, "by-tool.txt"), content: "planted" } },
];

type Done = { status: string; output: string; title: string };

/** Runs the attacks in one model step; answers each call's title, final status and output, in order. */
const attack = async (sandbox: "off" | "workspace") => {
  server.enqueue(toolCalls(ATTACKS()), text("done"));
  const agent = spawnAgent({ env: env(), cwd, args: ["--config", configFor(sandbox)] });
  await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "try" }] })).toEqual({ stopReason: "end_turn" });
  });
  await stop(agent);
  const updates = agent.updates.map((u) => u.update);
  const calls = updates.filter((u): u is acp.ToolCall & { sessionUpdate: "tool_call" } => u.sessionUpdate === "tool_call");
  const done = calls.map((call): Done => {
    const end = updates.find(
      (u): u is acp.ToolCallUpdate & { sessionUpdate: "tool_call_update" } =>
        u.sessionUpdate === "tool_call_update" && u.toolCallId === call.toolCallId && (u.status === "completed" || u.status === "failed"),
    );
    return { status: end?.status ?? "missing", output: (end?.rawOutput as { output: string } | undefined)?.output ?? "", title: call.title };
  });
  expect(agent.problems).toEqual([]);
  return { done, agent };
};

describe.skipIf(skip !== undefined)('tools.sandbox "workspace" (bubblewrap)', () => {
  it("lets a command write in the cwd; refuses $HOME, ~/.ssh, the agent's environment and the network, with hints; the file tools too", async () => {
    const { done, agent } = await attack("workspace");
    const [cwdWrite, homeWrite, sshRead, environ, tcp, readKey, writeHome] = done;
    expect(agent.stderr()).toContain("mm-acp: bash runs sandboxed (bubblewrap): writable: the session's cwd, a private /tmp; network: off; hidden: ~/.ssh");
    expect(cwdWrite).toMatchObject({ status: "completed", output: "ok\n[exit code: 0]", title: "bash: echo ok > in-cwd.txt && cat in-cwd.txt (sandboxed)" });
    expect(readFileSync(join(cwd, "in-cwd.txt"), "utf8")).toBe("ok\n");

    expect(homeWrite!.status).toBe("failed");
    expect(homeWrite!.output).toContain("Read-only file system");
    expect(homeWrite!.output).toContain("[sandbox: this command runs sandboxed");
    expect(existsSync(join(home, "planted.txt"))).toBe(false);

    expect(sshRead!.status).toBe("failed");
    expect(sshRead!.output).not.toContain(SECRET);
    expect(sshRead!.output).toContain(`[sandbox: ${join(home, ".ssh")} is hidden from sandboxed commands`);

    expect(environ!.status).toBe("failed");
    expect(environ!.output).not.toContain(KEY);

    expect(tcp!.status).toBe("failed");
    expect(tcp!.output).not.toContain("hello from outside");
    expect(tcp!.output).toContain("[sandbox: this command runs sandboxed without network");

    expect(readKey).toMatchObject({ status: "failed", title: "read_file: ~/.ssh/id_rsa" });
    expect(readKey!.output).toContain("hidden by the sandbox");
    expect(readKey!.output).not.toContain(SECRET);
    expect(writeHome!.status).toBe("failed");
    expect(writeHome!.output).toContain("refused by the sandbox: only the session's directory");
    expect(existsSync(join(home, "by-tool.txt"))).toBe(false);

    const asked = agent.permissions.map((p) => p.toolCall.title);
    expect(asked.filter((title) => title?.startsWith("bash: "))).toHaveLength(5);
    expect(asked.filter((title) => title?.startsWith("bash: ")).every((title) => title?.endsWith(" (sandboxed)"))).toBe(true);
    expect(asked).toContain("read_file: ~/.ssh/id_rsa");
    expect(agent.stderr()).not.toContain(KEY);
  });
});

describe('tools.sandbox "off"', () => {
  it("runs the same commands and file tools unconfined: every one of them succeeds", async () => {
    const { done, agent } = await attack("off");
    expect(done.map((d) => d.status)).toEqual(Array(7).fill("completed"));
    const [, , sshRead, environ, tcp, readKey] = done;
    expect(existsSync(join(home, "planted.txt"))).toBe(true);
    expect(sshRead!.output).toContain(SECRET);
    // The command reads the key from the agent's environment, but its value never reaches the
    // conversation: the model, the editor and the session file get it redacted (issue 27).
    expect(environ!.output).toContain("OPENAI_API_KEY=[redacted: a secret of the agent's]");
    expect(agent.stdoutLines.join("\n")).not.toContain(KEY);
    expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain(KEY);
    expect(tcp!.output).toContain("hello from outside");
    expect(readKey!.output).toContain(SECRET);
    expect(readFileSync(join(home, "by-tool.txt"), "utf8")).toBe("planted");
    expect(done.every((d) => !d.title.endsWith("(sandboxed)"))).toBe(true);
    expect(agent.stderr()).not.toMatch(/bash runs sandboxed|tools\.sandbox/);
  });
});

describe("tools.hiddenEnv", () => {
  it("removes the named variables, and the model key, from every command's environment", async () => {
    const config = join(cwd, "mm-config.json");
    writeFileSync(config, JSON.stringify({ tools: { hiddenEnv: ["GITHUB_TOKEN"] } }));
    server.enqueue(toolCalls([{ name: "bash", arguments: { command: 'echo "${GITHUB_TOKEN:-no token} ${OPENAI_API_KEY:-no key} $KEPT"' } }]), text("done"));
    const agent = spawnAgent({ env: env({ GITHUB_TOKEN: "ghp_secret", KEPT: "kept" }), cwd, args: ["--config", config] });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "env" }] });
    });
    await stop(agent);
    const end = agent.updates.map((u) => u.update).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
    expect(end).toMatchObject({ rawOutput: { output: "no token no key kept\n[exit code: 0]" } });
  });
});

describe('tools.sandbox "workspace" where bubblewrap cannot run', () => {
  /** A PATH holding bash (and, if given, a fake bwrap), nothing else. */
  const pathWith = (fakeBwrap?: string): string => {
    const bin = mkdtempSync(join(root, "bin-"));
    symlinkSync("/bin/bash", join(bin, "bash"));
    if (fakeBwrap !== undefined) {
      writeFileSync(join(bin, "bwrap"), `#!/bin/bash\n${fakeBwrap}\n`);
      chmodSync(join(bin, "bwrap"), 0o755);
    }
    return bin;
  };

  const refusedRun = async (path: string) => {
    const marker = join(cwd, "ran.txt");
    server.enqueue(toolCalls([{ name: "bash", arguments: { command: `echo ran > ${marker}` } }]), text("done"));
    const agent = spawnAgent({ env: env({ PATH: path }), cwd, args: ["--config", configFor("workspace")] });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run" }] });
    });
    await stop(agent);
    const end = agent.updates.map((u) => u.update).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed") as
      | { rawOutput: { output: string } }
      | undefined;
    expect(existsSync(marker)).toBe(false);
    expect(agent.problems).toEqual([]);
    return { stderr: agent.stderr(), output: end?.rawOutput.output ?? "" };
  };

  it("bwrap missing: one stderr line at start, and the bash call fails saying what to install; nothing runs", async () => {
    const { stderr, output } = await refusedRun(pathWith());
    const lines = stderr.split("\n").filter((line) => /bash runs sandboxed|tools\.sandbox/.test(line));
    expect(lines).toEqual([
      expect.stringMatching(
        /^mm-acp: tools\.sandbox is "workspace" but bwrap \(bubblewrap\) is not on the PATH: every bash command will fail until this is fixed\. To fix: install bubblewrap/,
      ),
    ]);
    expect(output).toMatch(
      /^\[could not run bash: the sandbox cannot run, so the command was not run .*not on the PATH\. To fix: install bubblewrap \(Debian\/Ubuntu: apt-get install bubblewrap/,
    );
  });

  it("no user namespaces: the line and the failure say so", async () => {
    const { stderr, output } = await refusedRun(pathWith("echo 'bwrap: setting up uid map: Permission denied' >&2; exit 1"));
    expect(stderr).toContain(
      'mm-acp: tools.sandbox is "workspace" but user namespaces are not available to bwrap (bwrap: setting up uid map: Permission denied)',
    );
    expect(output).toContain("user namespaces are not available to bwrap");
    expect(output).toContain("unprivileged_userns");
  });
});
