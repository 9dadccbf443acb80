/**
 * (10) Live command output: how long a line a command writes takes to reach the editor. Each bash
 * call prints `$EPOCHREALTIME` (bash's own clock, read as it writes) ten times, 30 ms apart; the
 * client notes when each `in_progress` update (or `terminal_output`, for a client that opts in; or
 * the final update, for lines written after the last live one) arrives and which lines it is the
 * first to show. Figures: the command's first write → its first
 * update (median and p95), and every later line → the first update showing it (coalesced to ten
 * updates a second, so up to 100 ms by design). Baseline: the same command spawned by the benchmark
 * itself, its first line read straight from the pipe.
 */
import { spawn } from "node:child_process";
import type * as acp from "@agentclientprotocol/sdk";
import type { FakeOpenAI } from "@mm/fake-openai";
import { text, toolCalls } from "@mm/fake-openai";
import { INITIALIZE, launch } from "../lib/agent.js";
import { row, type Row } from "../lib/report.js";
import { now, percentile } from "../lib/stats.js";
import { agentCommands, withConfig, type Workspace } from "../lib/workspace.js";

const CALLS = 20;
const LINES = 10;
const command = (i: number): string => `for j in $(seq ${LINES}); do echo "$EPOCHREALTIME"; sleep 0.03; done # ${i}`;

/** Wall-clock milliseconds of a `performance.now()` reading of this process. */
const wallMs = (at: number): number => performance.timeOrigin + at;

/** The timestamps an update shows, in order: the output so far, or a terminal's new lines. */
const stampsOf = (update: acp.SessionUpdate): { readonly id: string; readonly stamps: readonly number[]; readonly whole: boolean } | undefined => {
  if (update.sessionUpdate !== "tool_call_update") return undefined;
  const terminal = (update._meta as { terminal_output?: { data: string } } | undefined | null)?.terminal_output;
  const content = update.status !== "pending" ? update.content?.[0] : undefined;
  const shown = terminal?.data ?? (content?.type === "content" && content.content.type === "text" ? content.content.text : undefined);
  if (shown === undefined) return undefined;
  const stamps = shown
    .split("\n")
    .filter((l) => /^\d+\.\d+$/.test(l))
    .map((l) => Number(l) * 1000);
  return { id: update.toolCallId, stamps, whole: terminal === undefined };
};

type Latencies = { readonly first: number[]; readonly later: number[] };

const throughAgent = async (workspace: Workspace, server: FakeOpenAI, terminal: boolean): Promise<Latencies> => {
  const latencies: Latencies = { first: [], later: [] };
  const seen = new Map<string, number>();
  const agent = agentCommands()[0]!;
  const child = launch({
    command: withConfig(agent.command, workspace.config("live-output", {})),
    cwd: workspace.project,
    env: workspace.env,
    permission: "allow_always",
    onUpdate: (n, at) => {
      const shown = stampsOf(n.update);
      if (shown === undefined) return;
      const before = seen.get(shown.id) ?? 0;
      const fresh = shown.whole ? shown.stamps.slice(before) : shown.stamps;
      fresh.forEach((stamp, i) => (before + i === 0 ? latencies.first : latencies.later).push(wallMs(at) - stamp));
      seen.set(shown.id, before + fresh.length);
    },
  });
  try {
    const capabilities = terminal ? { ...INITIALIZE.clientCapabilities, _meta: { terminal_output: true } } : INITIALIZE.clientCapabilities;
    await child.request("initialize", { ...INITIALIZE, clientCapabilities: capabilities });
    const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
    server.enqueue(toolCalls(Array.from({ length: CALLS }, (_, i) => ({ name: "bash", arguments: { command: command(i) } }))), text("done"));
    const response = (await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "print" }] })) as { stopReason: string };
    if (response.stopReason !== "end_turn") throw new Error(`live-output turn ended ${response.stopReason}`);
  } finally {
    await child.close();
  }
  if (latencies.first.length !== CALLS || latencies.later.length !== CALLS * (LINES - 1)) {
    throw new Error(`expected ${CALLS} first lines and ${CALLS * (LINES - 1)} later ones, saw ${latencies.first.length} / ${latencies.later.length}`);
  }
  return latencies;
};

/** The floor: the command's first line, read from the pipe by this process. */
const straightFromThePipe = (cwd: string, env: Readonly<Record<string, string>>): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", command(0)], { cwd, env: { ...env }, stdio: ["ignore", "pipe", "inherit"] });
    let done = false;
    child.stdout.setEncoding("utf8").on("data", (data: string) => {
      const at = now();
      if (done) return;
      done = true;
      resolve(wallMs(at) - Number(data.split("\n")[0]) * 1000);
    });
    child.on("error", reject);
  });

export const liveOutput = async (workspace: Workspace, server: FakeOpenAI): Promise<Row[]> => {
  const floor: number[] = [];
  for (let i = 0; i < CALLS; i++) floor.push(await straightFromThePipe(workspace.project, workspace.env));
  const plain = await throughAgent(workspace, server, false);
  const terminal = await throughAgent(workspace, server, true);
  const baseline = { label: "read from the pipe by the bench", samples: floor };
  const rows = (id: string, who: string, l: Latencies): Row[] => [
    row({
      id: `live.${id}.first`,
      figure: `live output, ${who}: first write → update (median)`,
      unit: "ms",
      samples: l.first,
      baseline,
      targets: [{ on: "value", max: 100 }],
    }),
    row({
      id: `live.${id}.first-p95`,
      figure: `live output, ${who}: first write → update (p95)`,
      unit: "ms",
      samples: l.first,
      value: percentile(l.first, 0.95),
      baseline: { ...baseline, value: percentile(floor, 0.95) },
      targets: [{ on: "value", max: 100 }],
    }),
    row({
      id: `live.${id}.later`,
      figure: `live output, ${who}: later lines → update (median; coalesced)`,
      unit: "ms",
      samples: l.later,
      baseline,
      noRatio: true,
      note: `p95 ${percentile(l.later, 0.95).toFixed(1)} ms, max ${Math.max(...l.later).toFixed(1)} ms over ${l.later.length} lines written 30 ms apart`,
    }),
  ];
  return [...rows("text", "in_progress text", plain), ...rows("terminal", "terminal_output", terminal)];
};
