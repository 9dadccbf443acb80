/**
 * An answer at a real model's pace: the server streams 2,000 text chunks 10 ms apart (100 a second,
 * 20 s), mm beside the floor agent (bench/floor), 3 fresh processes each, alternating. Per turn: the
 * agent's CPU share over the answer (every thread's run time from /proc over the turn, divided by its wall
 * time), and the latency of the first `agent_message_chunk`: its arrival at the client minus the moment
 * the server wrote the first content frame (the role frame comes before it). The first turn of each
 * process comes a second after its `session/new`, as a user types it; a second turn follows in the same
 * process. One `agent_message_chunk` per delta is checked.
 */
import { slowText, type FakeOpenAI } from "@mm/fake-openai";
import { INITIALIZE, launch, type Command } from "../lib/agent.js";
import { cpuPreciseMs } from "../lib/proc.js";
import { row, type Row } from "../lib/report.js";
import { now, sleep } from "../lib/stats.js";
import { agentCommands, withConfig, type Workspace } from "../lib/workspace.js";

const PROCESSES = 3;
const CHUNKS = 2_000;
const DELAY_MS = 10;

type Sample = { readonly cpuShare: number; readonly firstChunkLatency: number; readonly chunks: number };

const pacedTurn = async (command: Command, workspace: Workspace, server: FakeOpenAI): Promise<Sample[]> => {
  let chunks = 0;
  let firstChunkAt: number | undefined;
  const child = launch({
    command,
    cwd: workspace.project,
    env: workspace.env,
    onUpdate: (n, at) => {
      if (n.update.sessionUpdate !== "agent_message_chunk") return;
      chunks++;
      firstChunkAt ??= at;
    },
  });
  const samples: Sample[] = [];
  try {
    await child.request("initialize", INITIALIZE);
    for (let turn = 0; turn < 2; turn++) {
      const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
      await sleep(1_000);
      chunks = 0;
      firstChunkAt = undefined;
      const before = server.requests.length;
      server.enqueue(
        slowText(
          Array.from({ length: CHUNKS }, (_, i) => `w${i} `),
          DELAY_MS,
        ),
      );
      const cpu0 = cpuPreciseMs(child.pid);
      const t0 = now();
      await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] });
      const wall = now() - t0;
      const cpu = cpuPreciseMs(child.pid) - cpu0;
      const written = server.requests[before]?.timing?.framesWrittenAt ?? [];
      // Frame 0 is the role frame (empty content); frame 1 carries the first delta.
      const firstContent = written[1];
      if (firstContent === undefined || firstChunkAt === undefined) throw new Error(`no paced answer: ${child.stderr().slice(-1000)}`);
      samples.push({ cpuShare: (cpu / wall) * 100, firstChunkLatency: firstChunkAt - firstContent, chunks });
    }
  } finally {
    await child.close();
  }
  return samples;
};

export const paced = async (workspace: Workspace, server: FakeOpenAI, floor: Command): Promise<Row[]> => {
  const agent = agentCommands()[0]!;
  const config = workspace.config("paced", {});
  const mine: Sample[][] = [];
  const floors: Sample[][] = [];
  for (let i = 0; i < PROCESSES; i++) {
    const order: [Command, Sample[][]][] = [
      [withConfig(agent.command, config), mine],
      [withConfig(floor, config), floors],
    ];
    if (i % 2 === 1) order.reverse();
    for (const [command, samples] of order) samples.push(await pacedTurn(command, workspace, server));
  }
  const all = (s: Sample[][]): Sample[] => s.flat();
  const perDelta = all(mine).every((s) => s.chunks === CHUNKS);
  const pace = `${CHUNKS.toLocaleString("en")} chunks ${DELAY_MS} ms apart (100 a second, 20 s)`;
  return [
    row({
      id: "paced.cpu-share",
      figure: `paced answer: agent CPU share (${pace})`,
      unit: "%",
      samples: all(mine).map((s) => s.cpuShare),
      baseline: { label: "floor agent", samples: all(floors).map((s) => s.cpuShare) },
      targets: [{ on: "ratio", max: 2 }],
      note: `first and second turn of ${PROCESSES} processes each; one agent_message_chunk per delta: ${perDelta ? "yes" : "NO"}`,
    }),
    row({
      id: "paced.first-chunk",
      figure: "paced answer: server's first content frame → first agent_message_chunk",
      unit: "ms",
      samples: all(mine).map((s) => s.firstChunkLatency),
      baseline: { label: "floor agent", samples: all(floors).map((s) => s.firstChunkLatency) },
      targets: [{ on: "value", max: 10 }],
      noRatio: true,
      note: `first turns only: ${mine.map((s) => s[0]!.firstChunkLatency.toFixed(1)).join(", ")} ms`,
    }),
  ];
};
