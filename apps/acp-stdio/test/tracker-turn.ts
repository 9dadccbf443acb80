/**
 * What the change-tracker e2e files share: git in the case's cwd, one turn with `.env` hidden and
 * sessions on (the model runs the commands, one bash call each), and what it left for the editor and
 * in the session files.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop, type SpawnedAgent } from "./spawned-agent.js";

/** `git args…` in `cwd`, as a user with no global config would run it; its stdout. */
export const gitIn = (cwd: string, ...args: string[]): string =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8" });

/** One turn in `cwd`, `.env` hidden, sessions on: the model runs `commands` one call each (sandboxed unless `sandbox` is "off"). */
export const runHiddenEnvTurn = async (
  { server, cwd, home }: { server: FakeOpenAI; cwd: string; home: string },
  commands: readonly string[],
  sandbox: "workspace" | "off",
): Promise<SpawnedAgent> => {
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

/** Every session file's text. */
export const sessionFiles = (cwd: string): string =>
  readdirSync(join(cwd, ".mm/sessions"))
    .filter((name) => name.endsWith(".json"))
    .map((name) => readFileSync(join(cwd, ".mm/sessions", name), "utf8"))
    .join("\n");

/** The diffs the editor was shown, as one text. */
export const shownDiffs = (agent: SpawnedAgent): string =>
  JSON.stringify(agent.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call_update" || u.sessionUpdate === "tool_call"));
