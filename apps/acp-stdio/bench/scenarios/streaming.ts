/**
 * (2) One prompt turn in which the server streams 20,000 small text chunks as fast as it is read:
 * the turn's time as the client sees it (prompt sent → `end_turn` received, every chunk having gone
 * through the agent and the client) and the agent's CPU per chunk (/proc utime+stime over the turn,
 * all threads), against a plain Node client reading the same stream from the same server with fetch
 * (SSE split into lines, each `data:` frame JSON-parsed, its delta taken). One agent process serves
 * every run; its first turn (cold code) is reported apart as the cold turn.
 */
import type { FakeOpenAI } from "@mm/fake-openai";
import { floodText } from "@mm/fake-openai";
import { INITIALIZE, launch } from "../lib/agent.js";
import { cpuMs } from "../lib/proc.js";
import { row, type Row } from "../lib/report.js";
import { median, now } from "../lib/stats.js";
import { agentCommands, withConfig, type Workspace } from "../lib/workspace.js";

export const CHUNKS = 20_000;
const CHUNK_TEXT = "word ";
const RUNS = 5;

/** Reads one streamed chat completion the way a minimal client would; returns the deltas' count. */
const readDirectly = async (server: FakeOpenAI): Promise<number> => {
  server.enqueue(floodText(CHUNKS, CHUNK_TEXT));
  const response = await fetch(`${server.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer not-needed" },
    body: JSON.stringify({ model: "fake-model", stream: true, messages: [{ role: "user", content: "go" }] }),
  });
  if (!response.body) throw new Error("no body");
  const decoder = new TextDecoder();
  let buffer = "";
  let deltas = 0;
  let text = "";
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
      const frame = JSON.parse(line.slice(6)) as { choices?: { delta?: { content?: string } }[] };
      const content = frame.choices?.[0]?.delta?.content;
      if (content) {
        deltas++;
        text += content;
      }
    }
  }
  if (text.length !== deltas * CHUNK_TEXT.length) throw new Error("direct read lost text");
  return deltas;
};

export const streaming = async (workspace: Workspace, server: FakeOpenAI): Promise<Row[]> => {
  const agent = agentCommands()[0]!;
  let chunks = 0;
  const child = launch({
    command: withConfig(agent.command, workspace.config("streaming", {})),
    cwd: workspace.project,
    env: workspace.env,
    onUpdate: (n) => {
      if (n.update.sessionUpdate === "agent_message_chunk") chunks++;
    },
  });
  const turnTimes: number[] = [];
  const cpuPerChunk: number[] = [];
  const direct: number[] = [];
  const chunkCounts: number[] = [];
  const clientCpuPerChunk: number[] = [];
  let cold = Number.NaN;
  try {
    await child.request("initialize", INITIALIZE);
    const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
    await readDirectly(server); // the baseline's own warm-up
    for (let run = -1; run < RUNS; run++) {
      // Baseline first on even runs, second on odd ones.
      if (run >= 0 && run % 2 === 0) direct.push(await timed(() => readDirectly(server), CHUNKS));
      // A fresh session each time: the history does not grow from run to run.
      const session =
        run < 0 ? sessionId : ((await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string }).sessionId;
      server.enqueue(floodText(CHUNKS, CHUNK_TEXT));
      chunks = 0;
      const cpu0 = cpuMs(child.pid);
      const own0 = process.cpuUsage();
      const t0 = now();
      const response = (await child.request("session/prompt", { sessionId: session, prompt: [{ type: "text", text: "go" }] })) as { stopReason: string };
      const elapsed = now() - t0;
      const cpu = cpuMs(child.pid) - cpu0;
      const own = process.cpuUsage(own0);
      if (response.stopReason !== "end_turn") throw new Error(`streaming turn ended ${response.stopReason}`);
      if (run < 0) {
        cold = elapsed;
        continue;
      }
      turnTimes.push(elapsed);
      cpuPerChunk.push((cpu * 1000) / CHUNKS);
      clientCpuPerChunk.push((own.user + own.system) / CHUNKS);
      chunkCounts.push(chunks);
      if (run % 2 === 1) direct.push(await timed(() => readDirectly(server), CHUNKS));
    }
  } finally {
    await child.close();
  }
  const oneChunkPerDelta = chunkCounts.every((c) => c === CHUNKS);
  return [
    row({
      id: "streaming.turn",
      figure: `streaming turn, ${CHUNKS.toLocaleString("en")} chunks`,
      unit: "ms",
      samples: turnTimes,
      baseline: { label: "fetch+SSE parse", samples: direct },
      targets: [{ on: "ratio", max: 1.8 }],
      note: `agent_message_chunk per turn: ${chunkCounts.join(", ")} (${oneChunkPerDelta ? "one per delta" : "NOT one per delta"})`,
    }),
    row({
      id: "streaming.cpu-per-chunk",
      figure: "agent CPU per chunk",
      unit: "µs",
      samples: cpuPerChunk,
      targets: [{ on: "value", max: 30 }],
    }),
    row({
      id: "streaming.client-cpu-per-chunk",
      figure: "bench CPU per chunk (SDK client + server)",
      unit: "µs",
      samples: clientCpuPerChunk,
    }),
    row({
      id: "streaming.cold-turn",
      figure: "first streaming turn of a process",
      unit: "ms",
      samples: [cold],
      baseline: { label: "warm turn", samples: [median(turnTimes)] },
    }),
  ];
};

const timed = async (op: () => Promise<number>, expected: number): Promise<number> => {
  const t0 = now();
  const count = await op();
  const elapsed = now() - t0;
  if (count !== expected) throw new Error(`direct read saw ${count} deltas, expected ${expected}`);
  return elapsed;
};
