/**
 * Times `session/load` of the benchmark's 10 MB session in fresh agents, quickly (no turns): wall time
 * and the agent's CPU, `runs` times, medians; optionally after a few turns on a tiny session.
 * `tsx --conditions=mm-source apps/acp-stdio/bench/time-load.ts [runs] [journaled] [turns before]`.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeOpenAI } from "@mm/fake-openai";
import { INITIALIZE, launch } from "./lib/agent.js";
import { cpuPreciseMs } from "./lib/proc.js";
import { median, now } from "./lib/stats.js";
import { agentCommands, createWorkspace, withConfig } from "./lib/workspace.js";
import { journaledFiles } from "./scenarios/sessions.js";
import { runScript } from "./lib/run-script.js";

const runs = Number(process.argv[2] ?? 7);
const journaled = Number(process.argv[3] ?? 0);
/** Turns on a tiny session before the load (the benchmark's sessions scenario runs five). */
const turnsBefore = Number(process.argv[4] ?? 0);
const ID = "20260101-000004-0000abcd";

const main = async (): Promise<void> => {
  const server = await startFakeOpenAI();
  const workspace = createWorkspace(server.url);
  try {
    mkdirSync(workspace.sessionsDir, { recursive: true, mode: 0o700 });
    const files = journaledFiles(workspace.project, 5000 + journaled, journaled, ID);
    const documentFile = join(workspace.root, "document.json");
    const journalFile = join(workspace.root, "journal");
    writeFileSync(documentFile, files.document);
    if (journaled > 0) writeFileSync(journalFile, files.journal);
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let run = -1; run < runs; run++) {
      copyFileSync(documentFile, join(workspace.sessionsDir, `${ID}.json`));
      rmSync(join(workspace.sessionsDir, `${ID}.journal`), { force: true });
      if (journaled > 0) copyFileSync(journalFile, join(workspace.sessionsDir, `${ID}.journal`));
      const child = launch({ command: withConfig(agentCommands()[0]!.command, workspace.config("load", { sessions: true })), cwd: workspace.project, env: workspace.env });
      await child.request("initialize", INITIALIZE);
      if (turnsBefore > 0) {
        const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
        for (let turn = 0; turn < turnsBefore; turn++) await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
      }
      const cpu0 = cpuPreciseMs(child.pid);
      const t0 = now();
      await child.request("session/load", { sessionId: ID, cwd: workspace.project, mcpServers: [] });
      if (run >= 0) {
        wall.push(now() - t0);
        cpu.push(cpuPreciseMs(child.pid) - cpu0);
      }
      await child.close();
    }
    process.stdout.write(`session/load of ${5000 + journaled} messages (${journaled} journaled, after ${turnsBefore} turn(s)): wall ${median(wall).toFixed(0)} ms [${wall.map((w) => w.toFixed(0)).join(" ")}], agent CPU ${median(cpu).toFixed(0)} ms\n`);
  } finally {
    await server.close();
    workspace.remove();
  }
};

runScript("time-load", main);
