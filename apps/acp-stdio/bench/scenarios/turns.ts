/**
 * (2b) What a turn costs, mm beside the floor agent (bench/floor: the smallest agent on the same ACP
 * SDK forwarding each delta). 5 fresh processes each, alternating; in each, after `initialize`, a fresh
 * session per turn and these turns in this order: 20 chunks (the process's first turn), 2,000 and
 * 20,000 (an early process: V8 still compiling), then 20, 2,000 and 20,000 again (a warm process).
 * Per turn: wall (prompt sent → response) and agent CPU (all threads' run time, from
 * /proc/<pid>/task/<tid>/schedstat, over the same span). From a 2,000- and a 20,000-chunk turn of one
 * process: CPU per extra chunk = (c20000 − c2000) / 18,000, fixed CPU per turn = c2000 − 2,000 × that.
 * Medians over the processes. The first prompt is sent a second after its `session/new` answer (a user
 * typing it; the agent may use that idle time); 5 more fresh processes of mm each send their first
 * prompt at once, the worst case, shown beside it. The first turn is compared with a warm turn of the
 * same size whose prompt comes after the same second's pause (a seventh turn): a turn right after a
 * 20,000-chunk one finds the machine busy and awake, one after a second of idle time does not, for a
 * warm process as for a fresh one (that row is kept for reference).
 */
import type { FakeOpenAI } from "@mm/fake-openai";
import { floodText } from "@mm/fake-openai";
import { INITIALIZE, launch, type Command, type Launched } from "../lib/agent.js";
import { cpuPreciseMs } from "../lib/proc.js";
import { row, type Row } from "../lib/report.js";
import { median, now, sleep } from "../lib/stats.js";
import { agentCommands, withConfig, type Workspace } from "../lib/workspace.js";

const PROCESSES = 5;
const SMALL = 20;
const MEDIUM = 2_000;
const LARGE = 20_000;
const CHUNK_TEXT = "word ";
/** Between `session/new` and the first prompt: the user typing it. */
const FIRST_PROMPT_PAUSE_MS = 1_000;

type Turn = { readonly wall: number; readonly cpu: number; readonly chunks: number };
type Pair = { readonly medium: Turn; readonly large: Turn };
type ProcessSample = { readonly first: Turn; readonly early: Pair; readonly warm: Turn; readonly steady: Pair; readonly warmAfterPause: Turn };

const runTurn = async (child: Launched, counter: { chunks: number }, workspace: Workspace, server: FakeOpenAI, chunks: number, pauseMs = 0): Promise<Turn> => {
  const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
  if (pauseMs > 0) await sleep(pauseMs);
  server.enqueue(floodText(chunks, CHUNK_TEXT));
  counter.chunks = 0;
  const cpu0 = cpuPreciseMs(child.pid);
  const t0 = now();
  const response = (await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] })) as { stopReason: string };
  const wall = now() - t0;
  const cpu = cpuPreciseMs(child.pid) - cpu0;
  if (response.stopReason !== "end_turn") throw new Error(`turn of ${chunks} chunks ended ${response.stopReason}: ${child.stderr().slice(-2000)}`);
  return { wall, cpu, chunks: counter.chunks };
};

const launchCounting = (command: Command, workspace: Workspace, counter: { chunks: number }): Launched =>
  launch({
    command,
    cwd: workspace.project,
    env: workspace.env,
    onUpdate: (n) => {
      if (n.update.sessionUpdate === "agent_message_chunk") counter.chunks++;
    },
  });

const measureProcess = async (command: Command, workspace: Workspace, server: FakeOpenAI): Promise<ProcessSample> => {
  const counter = { chunks: 0 };
  const child = launchCounting(command, workspace, counter);
  try {
    await child.request("initialize", INITIALIZE);
    const turn = (chunks: number) => runTurn(child, counter, workspace, server, chunks);
    const first = await runTurn(child, counter, workspace, server, SMALL, FIRST_PROMPT_PAUSE_MS);
    const early = { medium: await turn(MEDIUM), large: await turn(LARGE) };
    const warm = await turn(SMALL);
    const steady = { medium: await turn(MEDIUM), large: await turn(LARGE) };
    const warmAfterPause = await runTurn(child, counter, workspace, server, SMALL, FIRST_PROMPT_PAUSE_MS);
    return { first, early, warm, steady, warmAfterPause };
  } finally {
    await child.close();
  }
};

/** A fresh process's first turn, its prompt sent as soon as `session/new` is answered. */
const measureImpatient = async (command: Command, workspace: Workspace, server: FakeOpenAI): Promise<Turn> => {
  const counter = { chunks: 0 };
  const child = launchCounting(command, workspace, counter);
  try {
    await child.request("initialize", INITIALIZE);
    return await runTurn(child, counter, workspace, server, SMALL);
  } finally {
    await child.close();
  }
};

const perChunk = (p: Pair): number => (p.large.cpu - p.medium.cpu) / (LARGE - MEDIUM);
const fixed = (p: Pair): number => p.medium.cpu - MEDIUM * perChunk(p);
const fmt = (ms: number): string => ms.toFixed(ms >= 100 ? 0 : 1);
const turnsOf = (s: ProcessSample): Turn[] => [s.first, s.early.medium, s.early.large, s.warm, s.steady.medium, s.steady.large, s.warmAfterPause];
const expected = [SMALL, MEDIUM, LARGE, SMALL, MEDIUM, LARGE, SMALL];

export const turns = async (workspace: Workspace, server: FakeOpenAI, floor: Command): Promise<Row[]> => {
  const agent = agentCommands()[0]!;
  const config = workspace.config("turns", {});
  const mine: ProcessSample[] = [];
  const floors: ProcessSample[] = [];
  const impatient: Turn[] = [];
  for (let i = 0; i < PROCESSES; i++) {
    const order: [Command, ProcessSample[]][] = [
      [withConfig(agent.command, config), mine],
      [withConfig(floor, config), floors],
    ];
    if (i % 2 === 1) order.reverse();
    for (const [command, samples] of order) samples.push(await measureProcess(command, workspace, server));
    impatient.push(await measureImpatient(withConfig(agent.command, config), workspace, server));
  }
  const pick = (samples: readonly ProcessSample[], f: (s: ProcessSample) => number): number[] => samples.map(f);
  const both = (f: (s: ProcessSample) => number) => ({ samples: pick(mine, f), baseline: { label: "floor agent", samples: pick(floors, f) } });
  const perDelta = (samples: readonly ProcessSample[]): boolean => samples.every((s) => turnsOf(s).every((t, i) => t.chunks === expected[i]));
  const checked = `one agent_message_chunk per delta: mm ${perDelta(mine) ? "yes" : "NO"}, floor ${perDelta(floors) ? "yes" : "NO"}`;
  const early = "turns 2 and 3 of a fresh process, V8 still compiling";
  const steady = "turns 5 and 6 of the process";
  return [
    row({ id: "turns.steady.medium.cpu", figure: `turn of ${MEDIUM.toLocaleString("en")} chunks, agent CPU`, unit: "ms", ...both((s) => s.steady.medium.cpu), targets: [{ on: "ratio", max: 2 }], note: `${steady}; ${checked}` }),
    row({ id: "turns.steady.medium.wall", figure: `turn of ${MEDIUM.toLocaleString("en")} chunks, wall`, unit: "ms", ...both((s) => s.steady.medium.wall) }),
    row({ id: "turns.steady.large.cpu", figure: `turn of ${LARGE.toLocaleString("en")} chunks, agent CPU`, unit: "ms", ...both((s) => s.steady.large.cpu), targets: [{ on: "ratio", max: 1.5 }] }),
    row({ id: "turns.steady.large.wall", figure: `turn of ${LARGE.toLocaleString("en")} chunks, wall`, unit: "ms", ...both((s) => s.steady.large.wall) }),
    row({ id: "turns.steady.fixed-cpu", figure: "fixed CPU per turn", unit: "ms", ...both((s) => fixed(s.steady)), targets: [{ on: "value", max: 80 }], noRatio: true }),
    row({ id: "turns.steady.cpu-per-chunk", figure: "CPU per extra chunk", unit: "µs", ...both((s) => perChunk(s.steady) * 1000) }),
    row({ id: "turns.early.medium.cpu", figure: `early turn of ${MEDIUM.toLocaleString("en")} chunks, agent CPU`, unit: "ms", ...both((s) => s.early.medium.cpu), targets: [{ on: "ratio", max: 2 }], note: early }),
    row({ id: "turns.early.medium.wall", figure: `early turn of ${MEDIUM.toLocaleString("en")} chunks, wall`, unit: "ms", ...both((s) => s.early.medium.wall) }),
    row({ id: "turns.early.large.cpu", figure: `early turn of ${LARGE.toLocaleString("en")} chunks, agent CPU`, unit: "ms", ...both((s) => s.early.large.cpu), targets: [{ on: "ratio", max: 1.5 }] }),
    row({ id: "turns.early.large.wall", figure: `early turn of ${LARGE.toLocaleString("en")} chunks, wall`, unit: "ms", ...both((s) => s.early.large.wall) }),
    row({ id: "turns.early.fixed-cpu", figure: "fixed CPU per early turn", unit: "ms", ...both((s) => fixed(s.early)), targets: [{ on: "value", max: 80 }], noRatio: true }),
    row({ id: "turns.early.cpu-per-chunk", figure: "CPU per extra chunk, early turns", unit: "µs", ...both((s) => perChunk(s.early) * 1000) }),
    row({
      id: "turns.first",
      figure: `first turn of a process, ${SMALL} chunks (wall)`,
      unit: "ms",
      samples: pick(mine, (s) => s.first.wall),
      baseline: { label: "warm turn, same pause", samples: pick(mine, (s) => s.warmAfterPause.wall) },
      targets: [{ on: "ratio", max: 1.5 }],
      note: `both prompts sent ${FIRST_PROMPT_PAUSE_MS} ms after their session/new; agent CPU ${fmt(median(pick(mine, (s) => s.first.cpu)))} ms (warm ${fmt(median(pick(mine, (s) => s.warmAfterPause.cpu)))} ms); floor agent: first ${fmt(median(pick(floors, (s) => s.first.wall)))} ms, warm after the same pause ${fmt(median(pick(floors, (s) => s.warmAfterPause.wall)))} ms`,
    }),
    row({
      id: "turns.first-vs-busy",
      figure: `first turn of a process, ${SMALL} chunks, vs a warm turn right after a busy one (wall)`,
      unit: "ms",
      samples: pick(mine, (s) => s.first.wall),
      baseline: { label: "warm turn, no pause", samples: pick(mine, (s) => s.warm.wall) },
      note: `the warm turn follows a ${LARGE.toLocaleString("en")}-chunk turn at once (the machine awake); the same warm turn after a ${FIRST_PROMPT_PAUSE_MS} ms pause: ${fmt(median(pick(mine, (s) => s.warmAfterPause.wall)))} ms; floor agent: warm ${fmt(median(pick(floors, (s) => s.warm.wall)))} ms`,
    }),
    row({
      id: "turns.first-at-once",
      figure: `first turn of a process, ${SMALL} chunks, prompt sent at once (wall)`,
      unit: "ms",
      samples: impatient.map((t) => t.wall),
      baseline: { label: "warm turn", samples: pick(mine, (s) => s.warm.wall) },
      note: `the prompt sent as soon as session/new is answered; agent CPU ${fmt(median(impatient.map((t) => t.cpu)))} ms; one agent_message_chunk per delta: ${impatient.every((t) => t.chunks === SMALL) ? "yes" : "NO"}`,
    }),
  ];
};
