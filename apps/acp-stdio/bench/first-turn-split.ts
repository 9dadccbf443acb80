/**
 * Splits a first turn's excess over a warm one into code run for the first time, a new connection and
 * the idle time before the prompt: fresh agents answer a first prompt a second after `session/new`
 * (cold code, new connection, idle before), then one after five idle seconds (warm code; the kept
 * connection closed by then), one 50 ms after its `session/new`, one a second after it (warm code,
 * kept connection, idle before), then three more back to back in the same session (warm, busy), and
 * one more in that session after a second idle.
 * Medians of the wall times (client's clock) over `runs`.
 * `tsx --conditions=mm-source apps/acp-stdio/bench/first-turn-split.ts [runs] [bin]`.
 */
import { floodText, startFakeOpenAI } from "@mm/fake-openai";
import { INITIALIZE, launch } from "./lib/agent.js";
import { median, sleep } from "./lib/stats.js";
import { BIN_JS, createWorkspace, withConfig } from "./lib/workspace.js";
import { runScript } from "./lib/run-script.js";

const runs = Number(process.argv[2] ?? 5);
const bin = process.argv[3] ?? BIN_JS;

const main = async (): Promise<void> => {
  const server = await startFakeOpenAI([], { usage: { promptTokens: 100, completionTokens: 10 } });
  const workspace = createWorkspace(server.url);
  // > 0: a new session, then that pause; < 0: the same session after that pause; 0: the same session at once.
  const pauses = [1_000, 5_000, 50, 1_000, 0, 0, 0, -1_000];
  const walls: number[][] = pauses.map(() => []);
  try {
    for (let run = 0; run < runs; run++) {
      const child = launch({ command: withConfig({ file: process.execPath, args: [bin] }, workspace.config("split", {})), cwd: workspace.project, env: workspace.env });
      await child.request("initialize", INITIALIZE);
      let sessionId = "";
      for (const [turn, pause] of pauses.entries()) {
        if (pause > 0) sessionId = ((await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string }).sessionId;
        if (pause !== 0) await sleep(Math.abs(pause));
        server.enqueue(floodText(20, "word "));
        const t0 = performance.now();
        await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
        walls[turn]!.push(performance.now() - t0);
      }
      await child.close();
    }
  } finally {
    await server.close();
    workspace.remove();
  }
  const [first, reconnected, kept, idle, b1, b2, b3, sameIdle] = walls.map((w) => median(w).toFixed(2));
  process.stdout.write(
    `first turn ${first} ms; warm code, new connection ${reconnected} ms; warm code, kept connection ${kept} ms; the same a second idle ${idle} ms; back to back ${b1}, ${b2}, ${b3} ms; the same session after a second idle ${sameIdle} ms (medians of ${runs})\n`,
  );
};

runScript("first-turn-split", main);
