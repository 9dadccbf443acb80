/**
 * What the `/undo` end-to-end files share: one case's fake model (answering "ok"), cwd, state dir
 * (where the key that signs undo logs is kept) and config with sessions on; the agent spawned on the
 * full surface for it; a prompt; the tree's hashes; the last chunk; and the last line of every /undo.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { tempDir } from "./faults/helpers.js";
import { spawnAgent, stop, type SpawnedAgent } from "./spawned-agent.js";

export type UndoCase = { server: FakeOpenAI; cwd: string; state: string; config: string };

/** A fresh case; its directories are temp dirs (`removeTempDirs` takes them away). */
export const startUndoCase = async (name: string): Promise<UndoCase> => {
  const server = await startFakeOpenAI([], { defaultReply: () => text("ok") });
  const cwd = tempDir(name);
  const state = tempDir(`${name}-state`);
  const config = join(tempDir(`${name}-config`), "mm.json");
  writeFileSync(config, JSON.stringify({ sessions: { enabled: true } }));
  return { server, cwd, state, config };
};

export const spawnUndoAgent = ({ server, cwd, state, config }: UndoCase): SpawnedAgent =>
  spawnAgent({
    env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-undo", MM_MODEL: "fake", MM_ACP_SURFACE: "full", XDG_CONFIG_HOME: cwd, XDG_STATE_HOME: state },
    cwd,
    args: ["--config", config],
  });

/** Sends `words` as a prompt; the stop reason. */
export const prompt = async (client: acp.ClientContext, sessionId: string, words: string): Promise<string> =>
  ((await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: words }] })) as acp.PromptResponse).stopReason;

/** Every file under `dir` but the sessions dir and `.git`, by path, as a SHA-256 of its bytes. */
export const treeHash = (dir: string): Record<string, string> => {
  const out: Record<string, string> = {};
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== ".git" && relative(dir, path) !== ".mm") walk(path);
      } else out[relative(dir, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
    }
  };
  walk(dir);
  return out;
};

/** The text of the session's last agent message chunk ("" when none). */
export const lastChunk = (agent: SpawnedAgent, sessionId: string): string => {
  const chunks = agent.updates.filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "agent_message_chunk");
  return (chunks.at(-1)?.update as { content: { text: string } } | undefined)?.content.text ?? "";
};

/** The last line of every done /undo, as the user reads it. */
export const NOT_UNDONE =
  "Not undone: what the turn's commands did besides files (commits, installed packages, network calls, processes), " +
  "nor their changes to files mm does not watch (those git ignores, node_modules).";

/** A turn running `commands` (one bash call each), then `/undo`: the tree before the turn, after it, after the undo, and the chunk. */
export const turnThenUndo = async (undoCase: UndoCase, commands: readonly string[]) => {
  const { server, cwd } = undoCase;
  server.enqueue(...commands.map((command) => toolCalls([{ name: "bash", arguments: { command } }])), text("done"));
  const agent = spawnUndoAgent(undoCase);
  const result = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    const before = treeHash(cwd);
    await prompt(client, sessionId, "change things");
    const afterTurn = treeHash(cwd);
    await prompt(client, sessionId, "/undo");
    return { sessionId, before, afterTurn };
  });
  await stop(agent);
  return { ...result, afterUndo: treeHash(cwd), chunk: lastChunk(agent, result.sessionId), agent };
};
