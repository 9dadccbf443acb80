/**
 * `/undo` never removes a file whose content was there before the turn under another name (issue 37,
 * attacker's review). A file moved into view from where the change tracker does not look — a
 * directory git ignores (`mv build/out.bin release.bin`), `node_modules` outside git — looked made
 * by the turn, and `/undo` removed it: the only copy. Now its inode's age tells: older than the turn,
 * it is named not restorable and stays, with everything else the turn made; a rename of a file the
 * tracker follows is still taken back whole.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { removeTempDirs, tempDir } from "./faults/helpers.js";
import { spawnAgent, stop, type SpawnedAgent } from "./spawned-agent.js";

let server: FakeOpenAI;
let cwd: string;
let config: string;
let state: string;

beforeEach(async () => {
  server = await startFakeOpenAI([], { defaultReply: () => text("ok") });
  cwd = tempDir("undo-moved-in");
  state = tempDir("undo-moved-in-state");
  config = join(tempDir("undo-moved-in-config"), "mm.json");
  writeFileSync(config, JSON.stringify({ sessions: { enabled: true } }));
});
afterEach(async () => {
  await server.close();
  removeTempDirs();
});

const spawn = (): SpawnedAgent =>
  spawnAgent({
    env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-undo", MM_MODEL: "fake", MM_ACP_SURFACE: "full", XDG_CONFIG_HOME: cwd, XDG_STATE_HOME: state },
    cwd,
    args: ["--config", config],
  });

const prompt = async (client: acp.ClientContext, sessionId: string, words: string): Promise<string> =>
  ((await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: words }] })) as acp.PromptResponse).stopReason;

/** Every file under the cwd but the sessions dir and `.git`, by path, as a SHA-256 of its bytes. */
const treeHash = (): Record<string, string> => {
  const out: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== ".git" && relative(cwd, path) !== ".mm") walk(path);
      } else out[relative(cwd, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
    }
  };
  walk(cwd);
  return out;
};

const git = (...args: string[]): string =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8" });

const lastChunk = (agent: SpawnedAgent, sessionId: string): string => {
  const chunks = agent.updates.filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "agent_message_chunk");
  return (chunks.at(-1)?.update as { content: { text: string } } | undefined)?.content.text ?? "";
};

/** A turn running `commands` (one bash call each), then `/undo`: the tree before the turn, after it, after the undo, and the chunk. */
const turnThenUndo = async (commands: readonly string[]) => {
  server.enqueue(...commands.map((command) => toolCalls([{ name: "bash", arguments: { command } }])), text("done"));
  const agent = spawn();
  const result = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    const before = treeHash();
    await prompt(client, sessionId, "change things");
    const afterTurn = treeHash();
    await prompt(client, sessionId, "/undo");
    return { sessionId, before, afterTurn };
  });
  await stop(agent);
  return { ...result, afterUndo: treeHash(), chunk: lastChunk(agent, result.sessionId), agent };
};

/** `tree` without `paths`. */
const without = (tree: Record<string, string>, ...paths: string[]): Record<string, string> =>
  Object.fromEntries(Object.entries(tree).filter(([path]) => !paths.includes(path)));

const oldEnough = async (...names: string[]): Promise<void> => {
  const old = (): boolean => names.every((name) => statSync(join(cwd, name)).ctimeMs < Date.now() - 300);
  while (!old()) await new Promise((resolve) => setTimeout(resolve, 50));
};

const OLDER =
  "there before the turn under another name: moved or linked here from where mm does not look (a directory git ignores, node_modules), so it may hold the only copy";

describe("/undo keeps a file moved in from where mm does not look", () => {
  it("in git, keeps release.bin after `mv build/out.bin release.bin` (build/ ignored), and puts back what it can", async () => {
    writeFileSync(join(cwd, ".gitignore"), "build/\n");
    writeFileSync(join(cwd, "a.txt"), "a\n");
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "init");
    mkdirSync(join(cwd, "build"));
    writeFileSync(join(cwd, "build", "out.bin"), "the only build of last week\n");
    await oldEnough("build/out.bin");
    const { before, afterTurn, afterUndo, chunk, agent } = await turnThenUndo(["echo b > a.txt && mv build/out.bin release.bin"]);
    expect(Object.keys(afterTurn).sort()).toEqual([".gitignore", "a.txt", "release.bin"]);
    // Everything as before the turn but the move /undo cannot take back: the only copy stays.
    expect(afterUndo).toEqual({ ...without(before, "build/out.bin"), "release.bin": before["build/out.bin"] });
    expect(chunk).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed/);
    expect(chunk).toContain(`Not restorable (left as they are):\n- ${join(cwd, "release.bin")}: ${OLDER}`);
    expect(agent.problems).toEqual([]);
  });

  it("outside git, keeps x.js after `mv node_modules/p/big.js x.js`, and puts back what it can", async () => {
    mkdirSync(join(cwd, "node_modules", "p"), { recursive: true });
    writeFileSync(join(cwd, "node_modules", "p", "big.js"), "only copy\n");
    writeFileSync(join(cwd, "a.txt"), "a\n");
    await oldEnough("node_modules/p/big.js");
    const { before, afterTurn, afterUndo, chunk, agent } = await turnThenUndo(["mv node_modules/p/big.js x.js && echo b > a.txt"]);
    expect(Object.keys(afterTurn).sort()).toEqual(["a.txt", "x.js"]);
    expect(afterUndo).toEqual({ ...without(before, "node_modules/p/big.js"), "x.js": before["node_modules/p/big.js"] });
    expect(chunk).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed/);
    expect(chunk).toContain(`Not restorable (left as they are):\n- ${join(cwd, "x.js")}: ${OLDER}`);
    expect(agent.problems).toEqual([]);
  });

  it("still takes back a rename of a file the tracker follows (mv a.txt b.txt), in git and outside", async () => {
    writeFileSync(join(cwd, "a.txt"), "a\n");
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "init");
    await oldEnough("a.txt");
    const inGit = await turnThenUndo(["mv a.txt b.txt"]);
    expect(inGit.afterUndo).toEqual(inGit.before);
    expect(inGit.chunk).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 1 removed/);
    rmSync(join(cwd, ".git"), { recursive: true });
    const outside = await turnThenUndo(["mv a.txt c.txt"]);
    expect(outside.afterUndo).toEqual(outside.before);
    expect(outside.chunk).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 1 removed/);
  });
});
