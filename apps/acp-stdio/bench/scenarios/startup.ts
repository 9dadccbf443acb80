/**
 * (1) spawn → `initialize` response and → `session/new` response, and (5a) RSS at idle after
 * `session/new`, against the floor: a bare `node -e` process answering the same JSON-RPC lines, driven
 * by the same SDK client. Runs alternate agent and floor so both see the same machine load. The
 * installed package, when given, is measured in the same rounds, and set beside the repository's.
 */
import { FLOOR_SCRIPT, INITIALIZE, launch, type Launched } from "../lib/agent.js";
import { rssMb } from "../lib/proc.js";
import { row, type Row } from "../lib/report.js";
import { now, sleep } from "../lib/stats.js";
import { agentCommands, withConfig, type Workspace } from "../lib/workspace.js";
import type { Command } from "../lib/agent.js";
import { INSTALLED_LABEL } from "../lib/installed.js";

const RUNS = 15;
/** RSS is read on this many runs, after an idle pause (the pause is not in the timings). */
const RSS_RUNS = 5;
/** The pause before RSS is read: the agent idle, as while the user types. */
const IDLE_MS = 1_000;

type Sample = { init: number; created: number; rss?: number };

const measure = async (command: Command, workspace: Workspace, readRss: boolean): Promise<Sample> => {
  const process_: Launched = launch({ command, cwd: workspace.project, env: workspace.env });
  try {
    await process_.request("initialize", INITIALIZE);
    const init = now() - process_.spawnedAt;
    await process_.request("session/new", { cwd: workspace.project, mcpServers: [] });
    const created = now() - process_.spawnedAt;
    let rss: number | undefined;
    if (readRss) {
      await sleep(IDLE_MS);
      rss = rssMb(process_.pid);
    }
    return { init, created, ...(rss !== undefined ? { rss } : {}) };
  } finally {
    await process_.close();
  }
};

export const startup = async (
  workspace: Workspace,
  installed: readonly { readonly label: string; readonly command: Command }[] = [],
): Promise<{ rows: Row[]; idleRss: { agent: number[]; floor: number[] } }> => {
  const config = workspace.config("startup", {});
  const floor: Command = { file: process.execPath, args: ["-e", FLOOR_SCRIPT] };
  const agents = [...agentCommands(), ...installed];
  const samples = new Map<string, Sample[]>([["floor", []], ...agents.map((a): [string, Sample[]] => [a.label, []])]);
  // One untimed run each: the page cache and the node binary are warm for everyone.
  await measure(floor, workspace, false);
  for (const agent of agents) await measure(withConfig(agent.command, config), workspace, false);
  for (let i = 0; i < RUNS; i++) {
    const readRss = i < RSS_RUNS;
    const order = i % 2 === 0 ? ["floor", ...agents.map((a) => a.label)] : [...agents.map((a) => a.label).reverse(), "floor"];
    for (const label of order) {
      const agent = agents.find((a) => a.label === label);
      const sample = await measure(agent ? withConfig(agent.command, config) : floor, workspace, readRss);
      samples.get(label)!.push(sample);
    }
  }
  const floorSamples = samples.get("floor")!;
  const rows: Row[] = [];
  for (const agent of agents) {
    const mine = samples.get(agent.label)!;
    rows.push(
      row({
        id: `startup.initialize[${agent.label}]`,
        figure: `spawn → initialize (${agent.label})`,
        unit: "ms",
        samples: mine.map((s) => s.init),
        baseline: { label: "bare node", samples: floorSamples.map((s) => s.init) },
        noRatio: true,
      }),
      row({
        id: `startup.session-new[${agent.label}]`,
        figure: `spawn → session/new (${agent.label})`,
        unit: "ms",
        samples: mine.map((s) => s.created),
        baseline: { label: "bare node", samples: floorSamples.map((s) => s.created) },
        noRatio: true,
        // The moment the user can type. npx adds npm's own start-up, which the agent does not control: shown, not held to it.
        ...(agent.label === INSTALLED_LABEL ? { targets: [{ on: "value" as const, max: 150 }] } : {}),
      }),
    );
  }
  const firstAgent = samples.get(agents[0]!.label)!;
  return {
    rows,
    idleRss: {
      agent: firstAgent.flatMap((s) => (s.rss !== undefined ? [s.rss] : [])),
      floor: floorSamples.flatMap((s) => (s.rss !== undefined ? [s.rss] : [])),
    },
  };
};
