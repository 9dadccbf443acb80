/**
 * Profiles the first turn of fresh agents against a warm one: each of `runs` agents (under
 * `--cpu-prof`, 50 µs) answers a first prompt a second after `session/new`, then, 300 ms later, a
 * second one; the profiles land in `dir`. Read them with a script that cuts the two turns at the idle
 * gaps before them. `tsx --conditions=mm-source apps/acp-stdio/bench/profile-first-turn.ts [runs] [dir] [bin]`.
 */
import { mkdirSync, rmSync } from "node:fs";
import { floodText, startFakeOpenAI } from "@mm/fake-openai";
import { INITIALIZE, launch } from "./lib/agent.js";
import { sleep } from "./lib/stats.js";
import { BIN_JS, createWorkspace, withConfig } from "./lib/workspace.js";
import { runScript } from "./lib/run-script.js";

const runs = Number(process.argv[2] ?? 8);
const dir = process.argv[3] ?? "/tmp/mm-first-turn-profiles";
const bin = process.argv[4] ?? BIN_JS;

const main = async (): Promise<void> => {
  const server = await startFakeOpenAI([], { usage: { promptTokens: 100, completionTokens: 10 } });
  const workspace = createWorkspace(server.url);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    for (let run = 0; run < runs; run++) {
      const command = withConfig({ file: process.execPath, args: ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--cpu-prof-interval=50", bin] }, workspace.config("profile", {}));
      const child = launch({ command, cwd: workspace.project, env: workspace.env });
      await child.request("initialize", INITIALIZE);
      for (let turn = 0; turn < 2; turn++) {
        const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
        await sleep(turn === 0 ? 1_000 : 300);
        server.enqueue(floodText(20, "word "));
        await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
        await sleep(300);
      }
      await child.close();
    }
  } finally {
    await server.close();
    workspace.remove();
  }
};

runScript("profile-first-turn", main);
