/**
 * The start-up figures alone, quickly (no packing, no install): spawn → `initialize` and → `session/new`
 * of this repository's build (or MM_BENCH_BIN's) and of each `bin/mm-acp.js` given as an argument,
 * against a bare node process, runs alternated in the same rounds as `pnpm bench startup` does; medians,
 * ranges and ratios, and the load average before and after.
 * `tsx --conditions=mm-source apps/acp-stdio/bench/time-startup.ts [runs] [other/bin/mm-acp.js…]`.
 */
import { loadavg } from "node:os";
import { startFakeOpenAI } from "@mm/fake-openai";
import { FLOOR_SCRIPT, INITIALIZE, launch, type Command } from "./lib/agent.js";
import { median, now } from "./lib/stats.js";
import { agentCommands, createWorkspace, withConfig, type Workspace } from "./lib/workspace.js";
import { runScript } from "./lib/run-script.js";

const runs = Number(process.argv[2] ?? 15);
const others = process.argv.slice(3);

const measure = async (command: Command, workspace: Workspace): Promise<{ init: number; created: number }> => {
  const child = launch({ command, cwd: workspace.project, env: workspace.env });
  try {
    await child.request("initialize", INITIALIZE);
    const init = now() - child.spawnedAt;
    await child.request("session/new", { cwd: workspace.project, mcpServers: [] });
    return { init, created: now() - child.spawnedAt };
  } finally {
    await child.close();
  }
};

const main = async (): Promise<void> => {
  const server = await startFakeOpenAI();
  const workspace = createWorkspace(server.url);
  const load0 = loadavg()[0]!;
  try {
    const config = workspace.config("startup", {});
    const mine = agentCommands()[0]!;
    const agents: { label: string; command: Command }[] = [
      { label: "bare node", command: { file: process.execPath, args: ["-e", FLOOR_SCRIPT] } },
      { label: mine.label, command: withConfig(mine.command, config) },
      ...others.map((bin) => ({ label: bin, command: withConfig({ file: process.execPath, args: [bin] }, config) })),
    ];
    for (const agent of agents) await measure(agent.command, workspace);
    const samples = agents.map(() => ({ init: [] as number[], created: [] as number[] }));
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? agents.map((_, k) => k) : agents.map((_, k) => agents.length - 1 - k);
      for (const k of order) {
        const s = await measure(agents[k]!.command, workspace);
        samples[k]!.init.push(s.init);
        samples[k]!.created.push(s.created);
      }
    }
    const floor = median(samples[0]!.init);
    const floorNew = median(samples[0]!.created);
    for (const [k, agent] of agents.entries()) {
      const init = samples[k]!.init;
      const created = samples[k]!.created;
      process.stdout.write(
        `${agent.label}: initialize ${median(init).toFixed(1)} ms (${Math.min(...init).toFixed(1)}–${Math.max(...init).toFixed(1)}) ${(median(init) / floor).toFixed(2)}×; ` +
          `session/new ${median(created).toFixed(1)} ms ${(median(created) / floorNew).toFixed(2)}×\n`,
      );
    }
    process.stdout.write(`${runs} runs each, load average ${load0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}\n`);
  } finally {
    await server.close();
    workspace.remove();
  }
};

runScript("time-startup", main);
