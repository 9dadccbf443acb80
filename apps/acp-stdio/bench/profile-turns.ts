/**
 * Profiles mm's turns: one agent process per case, started under `--cpu-prof` (profiles land in
 * `--dir`, default /tmp/mm-turn-profiles/<case>), driven like the turns scenario against the fake
 * server. Cases: `startup` (initialize and session/new only), `cold` (then one turn of N chunks),
 * `warm` (a warm-up turn of N, then 10 more of N). Subtracting `startup` from `cold`, or reading `warm`
 * per turn, shows where a turn's CPU goes. As in the turns scenario, the first prompt is sent a second
 * after its `session/new` (`startup` idles as long). `tsx apps/acp-stdio/bench/profile-turns.ts [chunks] [dir]`.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { floodText, startFakeOpenAI } from "@mm/fake-openai";
import { INITIALIZE, launch } from "./lib/agent.js";
import { sleep } from "./lib/stats.js";
import { BIN_JS, createWorkspace, withConfig } from "./lib/workspace.js";
import { runScript } from "./lib/run-script.js";

const chunks = Number(process.argv[2] ?? 2000);
const root = process.argv[3] ?? "/tmp/mm-turn-profiles";
const FIRST_PROMPT_PAUSE_MS = 1_000;

const main = async (): Promise<void> => {
  const server = await startFakeOpenAI([], { usage: { promptTokens: 100, completionTokens: 10 } });
  const workspace = createWorkspace(server.url);
  try {
    for (const [name, turns] of [["startup", 0], ["cold", 1], ["warm", 11]] as const) {
      const dir = join(root, name);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const command = withConfig({ file: process.execPath, args: ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--cpu-prof-interval=100", BIN_JS] }, workspace.config("profile", {}));
      const child = launch({ command, cwd: workspace.project, env: workspace.env });
      await child.request("initialize", INITIALIZE);
      if (turns === 0) {
        await child.request("session/new", { cwd: workspace.project, mcpServers: [] });
        await sleep(FIRST_PROMPT_PAUSE_MS);
      }
      for (let turn = 0; turn < turns; turn++) {
        const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
        if (turn === 0) await sleep(FIRST_PROMPT_PAUSE_MS);
        server.enqueue(floodText(chunks, "word "));
        await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
      }
      await child.close();
      process.stderr.write(`profile-turns: ${name} (${turns} turn(s) of ${chunks} chunks) in ${dir}\n`);
    }
  } finally {
    await server.close();
    workspace.remove();
  }
};

runScript("profile-turns", main);
