/**
 * One boundary (issue 36), through the built binary: what mm reads on the host on its own for the
 * model, what the editor refuses, and a lock that is no lock.
 *
 * - AGENTS.md: a sandboxed `ln -s ~/.ssh/id_rsa AGENTS.md` put the private key the sandbox hides into
 *   the next session's system prompt; with the sandbox off, a repository's
 *   `AGENTS.md -> ../../.aws/credentials` sent the credentials. Now both are refused, named once on
 *   stderr, and the session goes on without them; a link to a file inside the cwd is still read.
 * - Skills: a `SKILL.md` swapped for a link to the key was returned by `read_skill`, and a link out of
 *   the skill's folder was listed among its files. Now the read fails in one line and the link is not listed.
 * - The editor's "no": a refused `fs/write_text_file` wrote the local disk anyway and showed
 *   `completed`. Now the call fails with the editor's reason; "method not found" still uses the disk.
 * - A lock that is a symlink or a FIFO: the session was used with no lock. Now the thing is replaced
 *   by a real lock (its target never written), and a second process is refused the session.
 */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnAgent, stop, type SpawnedAgent, type SpawnOptions } from "./spawned-agent.js";
import { bwrapSkipReason } from "./bwrap-probe.js";

const root = mkdtempSync(join(tmpdir(), "mm-one-boundary-"));
const noBwrap = (await bwrapSkipReason(root)) !== undefined;

const KEY = "-----BEGIN OPENSSH PRIVATE KEY----- sekrit-key-material";
const CREDS = "aws_secret_access_key = sekrit-aws-credentials";

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
  mkdirSync(join(home, ".aws"));
  writeFileSync(join(home, ".aws", "credentials"), `${CREDS}\n`);
});
afterEach(() => server.close());
afterAll(() => rmSync(root, { recursive: true, force: true }));

const configWith = (settings: object): string[] => {
  const config = join(home, "mm.json");
  writeFileSync(config, JSON.stringify(settings));
  return ["--config", config];
};

const spawn = (settings: object, extra: Partial<SpawnOptions> = {}) =>
  spawnAgent({ cwd, args: configWith(settings), env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-x", MM_MODEL: "m", HOME: home }, ...extra });

/** One prompt in a new session of `agent`, then the agent stopped; the session's id. */
const promptOnceThenStop = async (agent: SpawnedAgent, words: string): Promise<string> => {
  const sessionId = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: words }] });
    return sessionId;
  });
  await stop(agent);
  return sessionId;
};

/** A skill `deploy` in `~/skills`: the skills dir and the skill's folder. */
const deploySkill = () => {
  const skills = join(home, "skills");
  const folder = join(skills, "deploy");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "SKILL.md"), "---\nname: deploy\ndescription: Deploys the thing.\n---\nRun deploy.sh.\n");
  return { skills, folder };
};

/** Every request body the model server received, as one string. */
const allBodies = () => JSON.stringify(server.requests.map((r) => r.body));
/** The system prompt of the request at `index`. */
const systemPromptOf = (index: number): string => {
  const body = server.requests[index]?.body as { messages?: { role: string; content: unknown }[] } | undefined;
  return JSON.stringify(body?.messages?.find((m) => m.role === "system")?.content ?? "");
};

/** The last update of each call that ended, in order. */
const endedCalls = (agent: ReturnType<typeof spawnAgent>) =>
  agent.updates
    .map((u) => u.update)
    .filter(
      (u): u is acp.ToolCallUpdate & { sessionUpdate: "tool_call_update" } =>
        u.sessionUpdate === "tool_call_update" && (u.status === "completed" || u.status === "failed"),
    );

const occurrences = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe("AGENTS.md goes through the boundary", () => {
  it.skipIf(noBwrap)("a sandboxed command's `ln -s ~/.ssh/id_rsa AGENTS.md` does not put the key in the next session's system prompt", async () => {
    server.enqueue(toolCalls([{ name: "bash", arguments: { command: `ln -s ${join(home, ".ssh", "id_rsa")} AGENTS.md` } }]), text("done"), text("hello"));
    const agent = spawn({ tools: { sandbox: "workspace" } });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "plant it" }] });
      const next = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId: next.sessionId, prompt: [{ type: "text", text: "hi" }] });
    });
    await stop(agent);
    expect(lstatSync(join(cwd, "AGENTS.md")).isSymbolicLink()).toBe(true);
    expect(server.requests).toHaveLength(3);
    expect(allBodies()).not.toContain("sekrit-key-material");
    expect(occurrences(agent.stderr(), "AGENTS.md not read")).toBe(1);
    expect(agent.stderr()).toContain(join(cwd, "AGENTS.md"));
  });

  it("with the sandbox off, a repository's AGENTS.md -> ../../.aws/credentials is refused, named once, and the session goes on", async () => {
    symlinkSync("../../.aws/credentials", join(cwd, "AGENTS.md"));
    server.enqueue(text("hello"), text("again"));
    const agent = spawn({});
    const answers = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      const first = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
      const other = await client.request("session/new", { cwd, mcpServers: [] });
      return [first, await client.request("session/prompt", { sessionId: other.sessionId, prompt: [{ type: "text", text: "hi" }] })];
    });
    await stop(agent);
    expect(answers).toEqual([{ stopReason: "end_turn" }, { stopReason: "end_turn" }]);
    expect(allBodies()).not.toContain("sekrit-aws-credentials");
    expect(occurrences(agent.stderr(), "AGENTS.md not read")).toBe(1);
    expect(agent.stderr()).toContain("refused: a hidden path");
  });

  it("with the sandbox off, an AGENTS.md linking out of the cwd to a file nothing hides is refused too", async () => {
    writeFileSync(join(home, "notes.txt"), "private notes of the user\n");
    symlinkSync("../../notes.txt", join(cwd, "AGENTS.md"));
    server.enqueue(text("hello"));
    const agent = spawn({});
    await promptOnceThenStop(agent, "hi");
    expect(allBodies()).not.toContain("private notes of the user");
    expect(agent.stderr()).toContain(`refused: it leads out of ${cwd}`);
  });

  it("at session/load too: a link planted since the session was saved is refused", async () => {
    const settings = { sessions: { enabled: true } };
    server.enqueue(text("first"));
    const sessionId = await promptOnceThenStop(spawn(settings), "hi");
    symlinkSync(join(home, ".ssh", "id_rsa"), join(cwd, "AGENTS.md"));
    server.enqueue(text("second"));
    const again = spawn(settings);
    await again.run(async (client) => {
      await client.request("session/load", { sessionId, cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] });
    });
    await stop(again);
    expect(server.requests).toHaveLength(2);
    expect(allBodies()).not.toContain("sekrit-key-material");
    expect(occurrences(again.stderr(), "AGENTS.md not read")).toBe(1);
  });

  it("a link inside the cwd to a regular file inside it is read", async () => {
    mkdirSync(join(cwd, "docs"));
    writeFileSync(join(cwd, "docs", "agents.md"), "Always answer in haiku.\n");
    symlinkSync("docs/agents.md", join(cwd, "AGENTS.md"));
    server.enqueue(text("hello"));
    const agent = spawn({});
    await promptOnceThenStop(agent, "hi");
    expect(systemPromptOf(0)).toContain("Always answer in haiku.");
    expect(agent.stderr()).not.toContain("AGENTS.md not read");
  });
});

describe("skills go through the boundary", () => {
  it("read_skill refuses a SKILL.md swapped for a link out of the skill's folder, to a file nothing hides", async () => {
    const { skills, folder } = deploySkill();
    writeFileSync(join(home, "notes.md"), "---\nname: deploy\ndescription: x\n---\nprivate notes of the user\n");
    server.enqueue(
      toolCalls([{ name: "bash", arguments: { command: `ln -sf ../../notes.md ${join(folder, "SKILL.md")}` } }]),
      toolCalls([{ name: "read_skill", arguments: { name: "deploy" } }]),
      text("done"),
    );
    const agent = spawn({ skills: { dirs: [skills] } });
    await promptOnceThenStop(agent, "deploy");
    const ends = endedCalls(agent);
    expect(ends.map((u) => u.status)).toEqual(["completed", "failed"]);
    expect(JSON.stringify(ends[1]?.rawOutput)).toContain(`cannot read SKILL.md (refused: it leads out of ${folder}`);
    expect(allBodies()).not.toContain("private notes of the user");
  });

  it("read_skill refuses a SKILL.md swapped for a link to the key, in one line, and lists no link out of the folder", async () => {
    const { skills, folder } = deploySkill();
    writeFileSync(join(folder, "deploy.sh"), "echo deploy\n");
    symlinkSync(join(home, ".aws", "credentials"), join(folder, "creds-out.txt"));
    symlinkSync("deploy.sh", join(folder, "inside-link.sh"));
    server.enqueue(
      toolCalls([{ name: "read_skill", arguments: { name: "deploy" } }]),
      toolCalls([{ name: "bash", arguments: { command: `ln -sf ${join(home, ".ssh", "id_rsa")} ${join(folder, "SKILL.md")}` } }]),
      toolCalls([{ name: "read_skill", arguments: { name: "deploy" } }]),
      text("done"),
    );
    const agent = spawn({ skills: { dirs: [skills] } });
    await promptOnceThenStop(agent, "deploy");
    const ends = endedCalls(agent);
    expect(ends.map((u) => u.status)).toEqual(["completed", "completed", "failed"]);
    const listed = JSON.stringify(ends[0]?.rawOutput);
    expect(listed).toContain("Run deploy.sh.");
    expect(listed).toContain("deploy.sh");
    expect(listed).toContain("inside-link.sh");
    expect(listed).not.toContain("creds-out.txt");
    const refused = JSON.stringify(ends[2]?.rawOutput);
    expect(refused).toContain("cannot read SKILL.md (refused: a hidden path");
    expect(refused).not.toContain("\\n");
    expect(allBodies()).not.toContain("sekrit-key-material");
    expect(JSON.stringify(agent.updates)).not.toContain("sekrit-key-material");
  });
});

describe("the editor's refusal of fs/* is honoured", () => {
  const refusing = (method: string): never => {
    throw new acp.RequestError(-32603, `Permission denied for ${method}`);
  };

  it("a refused fs/write_text_file or fs/read_text_file fails the call with the editor's reason; the local disk is untouched", async () => {
    writeFileSync(join(cwd, "existing.txt"), "local content\n");
    server.enqueue(
      toolCalls([{ name: "write_file", arguments: { path: "notes.txt", content: "written\n" } }]),
      toolCalls([{ name: "read_file", arguments: { path: "existing.txt" } }]),
      text("done"),
    );
    const agent = spawn({}, { clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } }, fsAnswer: (method) => refusing(method) });
    await promptOnceThenStop(agent, "write");
    const ends = endedCalls(agent);
    expect(ends.map((u) => u.status)).toEqual(["failed", "failed"]);
    expect(JSON.stringify(ends[0]?.rawOutput)).toContain("Permission denied for fs/write_text_file");
    expect(JSON.stringify(ends[1]?.rawOutput)).toContain("Permission denied for fs/read_text_file");
    expect(existsSync(join(cwd, "notes.txt"))).toBe(false);
    // The model was told the editor's reason.
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("Permission denied for fs/write_text_file");
    expect(JSON.stringify(server.requests.at(-1)?.body)).not.toContain("local content");
  });

  it("an editor that answers method not found is served by the local disk", async () => {
    server.enqueue(toolCalls([{ name: "write_file", arguments: { path: "notes.txt", content: "written\n" } }]), text("done"));
    const agent = spawn(
      {},
      {
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } },
        fsAnswer: (method) => {
          throw acp.RequestError.methodNotFound(method);
        },
      },
    );
    await promptOnceThenStop(agent, "write");
    expect(endedCalls(agent).map((u) => u.status)).toEqual(["completed"]);
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("written\n");
  });
});

describe("a lock that is no lock file", () => {
  it.each([
    ["a symlink", (lock: string, target: string) => symlinkSync(target, lock)],
    ["a FIFO", (lock: string) => void execFileSync("mkfifo", [lock])],
  ])("when it is %s, the session is loaded under a real lock (its target never written) that a second process cannot take", async (what, plant) => {
    const settings = { sessions: { enabled: true } };
    server.enqueue(text("first"));
    const sessionId = await promptOnceThenStop(spawn(settings), "hi");
    const lock = join(cwd, ".mm", "sessions", `${sessionId}.lock`);
    const target = join(home, "target.txt");
    writeFileSync(target, "untouched\n");
    plant(lock, target);
    server.enqueue(text("second"));
    const holder = spawn(settings);
    const second = spawn(settings);
    const refused = await holder.run(async (client) => {
      await client.request("session/load", { sessionId, cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] });
      // A real lock naming this process, while it holds the session.
      expect(lstatSync(lock).isFile()).toBe(true);
      expect(JSON.parse(readFileSync(lock, "utf8"))).toMatchObject({ pid: holder.child.pid });
      return second.run((other) =>
        other.request("session/load", { sessionId, cwd, mcpServers: [] }).then(
          () => "loaded",
          (e: { message: string; data?: unknown }) => `${e.message} ${JSON.stringify(e.data)}`,
        ),
      );
    });
    await stop(second);
    await stop(holder);
    expect(readFileSync(target, "utf8")).toBe("untouched\n");
    expect(refused).toContain("open in another mm process");
    expect(occurrences(holder.stderr(), `was ${what}, not a lock file: replaced by a new lock`)).toBe(1);
  });
});
