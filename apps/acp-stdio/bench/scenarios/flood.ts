/**
 * A stress figure, with no target: answers of 2,000 and 20,000 chunks streamed as fast as the socket
 * takes them, mm beside the floor agent (bench/floor), 3 fresh processes each, alternating. In each
 * process a first turn of 20 chunks (cold code), then the two floods; per flood the agent's CPU (every
 * thread's run time from /proc over the turn) and the wall time, prompt sent → response. A real model
 * takes 20 to 200 s to stream that much: this shows the agent's cost per chunk, not what a user waits
 * for. One `agent_message_chunk` per delta is checked.
 */
import type { FakeOpenAI } from "@mm/fake-openai";
import { floodText } from "@mm/fake-openai";
import { INITIALIZE, launch, type Command, type Launched } from "../lib/agent.js";
import { cpuPreciseMs } from "../lib/proc.js";
import { row, type Row } from "../lib/report.js";
import { agentCommands, withConfig, type Workspace } from "../lib/workspace.js";

const PROCESSES = 3;
const SIZES = [2_000, 20_000] as const;
const CHUNK_TEXT = "word ";

type Turn = { readonly wall: number; readonly cpu: number; readonly chunks: number };

const runTurn = async (child: Launched, counter: { chunks: number }, workspace: Workspace, server: FakeOpenAI, chunks: number): Promise<Turn> => {
  const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
  server.enqueue(floodText(chunks, CHUNK_TEXT));
  counter.chunks = 0;
  const cpu0 = cpuPreciseMs(child.pid);
  const t0 = performance.now();
  const response = (await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] })) as { stopReason: string };
  const wall = performance.now() - t0;
  const cpu = cpuPreciseMs(child.pid) - cpu0;
  if (response.stopReason !== "end_turn") throw new Error(`turn of ${chunks} chunks ended ${response.stopReason}: ${child.stderr().slice(-2000)}`);
  return { wall, cpu, chunks: counter.chunks };
};

const measureProcess = async (command: Command, workspace: Workspace, server: FakeOpenAI): Promise<Turn[]> => {
  const counter = { chunks: 0 };
  const child = launch({
    command,
    cwd: workspace.project,
    env: workspace.env,
    onUpdate: (n) => {
      if (n.update.sessionUpdate === "agent_message_chunk") counter.chunks++;
    },
  });
  try {
    await child.request("initialize", INITIALIZE);
    await runTurn(child, counter, workspace, server, 20);
    const turns: Turn[] = [];
    for (const size of SIZES) turns.push(await runTurn(child, counter, workspace, server, size));
    return turns;
  } finally {
    await child.close();
  }
};

export const flood = async (workspace: Workspace, server: FakeOpenAI, floor: Command): Promise<Row[]> => {
  const agent = agentCommands()[0]!;
  const config = workspace.config("flood", {});
  const mine: Turn[][] = [];
  const floors: Turn[][] = [];
  for (let i = 0; i < PROCESSES; i++) {
    const order: [Command, Turn[][]][] = [
      [withConfig(agent.command, config), mine],
      [withConfig(floor, config), floors],
    ];
    if (i % 2 === 1) order.reverse();
    for (const [command, samples] of order) samples.push(await measureProcess(command, workspace, server));
  }
  const perDelta = mine.every((turns) => turns.every((t, i) => t.chunks === SIZES[i]));
  return SIZES.flatMap((size, i) => [
    row({
      id: `flood.cpu[${size}]`,
      figure: `unpaced answer of ${size.toLocaleString("en")} chunks (stress): agent CPU`,
      unit: "ms",
      samples: mine.map((t) => t[i]!.cpu),
      baseline: { label: "floor agent", samples: floors.map((t) => t[i]!.cpu) },
      ...(i === 0 ? { note: `as fast as the socket takes them; one agent_message_chunk per delta: ${perDelta ? "yes" : "NO"}` } : {}),
    }),
    row({
      id: `flood.wall[${size}]`,
      figure: `unpaced answer of ${size.toLocaleString("en")} chunks (stress): wall`,
      unit: "ms",
      samples: mine.map((t) => t[i]!.wall),
      baseline: { label: "floor agent", samples: floors.map((t) => t[i]!.wall) },
    }),
  ]);
};
