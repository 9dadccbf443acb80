/**
 * Where a first turn's wall time goes, seen from both ends: fresh agents (debug log on) each answer a
 * first prompt a second after `session/new`, then a warm one; printed per turn: prompt → answer (the
 * client's clock), the agent's own lines (request sent → response headers, step start → first output)
 * and the fake server's (request arrived → last byte read → answer handed over), on the bench's clock.
 * `tsx --conditions=mm-source apps/acp-stdio/bench/first-turn-timing.ts [runs] [bin]`.
 */
import { floodText, startFakeOpenAI } from "@mm/fake-openai";
import { INITIALIZE, launch } from "./lib/agent.js";
import { sleep } from "./lib/stats.js";
import { BIN_JS, createWorkspace, withConfig } from "./lib/workspace.js";
import { runScript } from "./lib/run-script.js";

const runs = Number(process.argv[2] ?? 5);
const bin = process.argv[3] ?? BIN_JS;

const main = async (): Promise<void> => {
  const server = await startFakeOpenAI([], { usage: { promptTokens: 100, completionTokens: 10 } });
  const workspace = createWorkspace(server.url);
  try {
    for (let run = 0; run < runs; run++) {
      const command = withConfig({ file: process.execPath, args: [bin, "--log-level", "debug"] }, workspace.config("timing", {}));
      const child = launch({ command, cwd: workspace.project, env: workspace.env });
      await child.request("initialize", INITIALIZE);
      const lines: string[] = [];
      for (let turn = 0; turn < 2; turn++) {
        const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
        if (turn === 0) await sleep(1_000);
        server.enqueue(floodText(20, "word "));
        const from = server.requests.length;
        const t0 = performance.now();
        await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
        const wall = performance.now() - t0;
        const timing = server.requests[from]?.timing;
        const at = (t: number | undefined): string => (t === undefined ? "?" : (t - t0).toFixed(2));
        lines.push(`${turn === 0 ? "first" : "warm "} ${wall.toFixed(2)} ms; server: arrived ${at(timing?.arrivedAt)}, last byte ${at(timing?.lastByteAt)}, answered ${at(timing?.answeredAt)}`);
      }
      const stderr = child.stderr();
      await child.close();
      process.stdout.write(`${lines.join("\n")}\n${String(stderr).split("\n").filter((l) => /model (request|step)/.test(l)).join("\n")}\n\n`);
    }
  } finally {
    await server.close();
    workspace.remove();
  }
};

runScript("first-turn-timing", main);
