/**
 * (4b) What a long history costs each model step: every step re-sends the whole history, once per tool
 * call. Sessions of about 1 MB and 10 MB (bench/scenarios/sessions.ts's generator) are loaded in a
 * fresh agent each run; on each, a warm-up turn, then the measured turn: the fake model calls
 * `read_skill` (never gated, no permission round trip), then answers. The second model step of that
 * turn starts once the agent has read the first answer's end and run the tool: the figure is the fake
 * server handing the first answer (a tool call, a few frames) whole to the socket → it reading the
 * last byte of the second request's body, both on the server's clock. An upper bound of "step start →
 * last byte out" by the agent's reading of that answer's end and the tool (an unknown skill: an error
 * at once). It leaves out what a turn does once before its first step (on a loaded session, saving
 * it): the first request's times are in the note.
 * Baseline: JSON.stringify, in the bench process, of the body the server received for that request
 * (once warmed on the same body): the cost of serialising that request once.
 */
import { copyFileSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeOpenAI, RecordedRequest } from "@mm/fake-openai";
import { text, toolCalls } from "@mm/fake-openai";
import { encodeSessionDocument } from "@mm/node";
import { INITIALIZE, launch, type Launched } from "../lib/agent.js";
import { row, type Row } from "../lib/report.js";
import { median, now } from "../lib/stats.js";
import { agentCommands, withConfig, type Workspace } from "../lib/workspace.js";
import { bigHistory } from "./sessions.js";

const RUNS = 5;
const SIZES = [
  { label: "1 MB", messages: 500, id: "20260101-000001-0001face" },
  { label: "10 MB", messages: 5_000, id: "20260101-000002-0010face" },
] as const;

type StepTiming = {
  /** First answer handed to the socket → second request's last body byte, ms. */
  readonly step: number;
  /** First answer handed to the socket → second request's headers read, ms. */
  readonly stepHeaders: number;
  /** Prompt sent → first request's headers / last body byte, ms. */
  readonly firstStarted: number;
  readonly firstLast: number;
  readonly stringify: number;
  readonly bytes: number;
};

const timedTurn = async (child: Launched, server: FakeOpenAI, sessionId: string): Promise<StepTiming> => {
  const before = server.requests.length;
  server.enqueue(toolCalls([{ name: "read_skill", arguments: { name: "no-such-skill" } }]), text(["ok"]));
  const t0 = now();
  const response = (await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "one more" }] })) as { stopReason: string };
  if (response.stopReason !== "end_turn") throw new Error(`turn ended ${response.stopReason}: ${child.stderr().slice(-2000)}`);
  const first: RecordedRequest | undefined = server.requests[before];
  const second: RecordedRequest | undefined = server.requests[before + 1];
  const answered = first?.timing?.answeredAt;
  if (first?.timing === undefined || second?.timing === undefined || answered === undefined || server.requests.length !== before + 2) {
    throw new Error("expected two model requests in the turn, the first one answered");
  }
  JSON.stringify(second.body);
  const s0 = now();
  const body = JSON.stringify(second.body);
  const stringify = now() - s0;
  // The bodies are not kept: a bench process holding every 10 MB body it parsed collects garbage while
  // it reads the next request, and that is not the agent's time.
  server.requests.length = 0;
  return {
    step: second.timing.lastByteAt - answered,
    stepHeaders: second.timing.arrivedAt - answered,
    firstStarted: first.timing.arrivedAt - t0,
    firstLast: first.timing.lastByteAt - t0,
    stringify,
    bytes: Buffer.byteLength(body),
  };
};

export const longHistory = async (workspace: Workspace, server: FakeOpenAI): Promise<Row[]> => {
  mkdirSync(workspace.sessionsDir, { recursive: true, mode: 0o700 });
  const files = SIZES.map((size) => {
    const encoded = encodeSessionDocument(bigHistory(workspace.project, size.messages, size.id));
    if (encoded.isErr()) throw new Error(encoded.error);
    const pristine = join(workspace.root, `pristine-${size.id}.json`);
    writeFileSync(pristine, encoded.value);
    return { ...size, pristine, mb: statSync(pristine).size / 1e6 };
  });
  const agent = agentCommands()[0]!;
  const config = workspace.config("long-history", { sessions: true });
  const tiny: StepTiming[] = [];
  const measured = new Map<string, StepTiming[]>(files.map((f) => [f.id, []]));
  const afterLoad = new Map<string, StepTiming[]>(files.map((f) => [f.id, []]));
  for (let run = 0; run < RUNS; run++) {
    const child = launch({ command: withConfig(agent.command, config), cwd: workspace.project, env: workspace.env });
    try {
      await child.request("initialize", INITIALIZE);
      const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
      await timedTurn(child, server, sessionId); // the first turn: cold code
      tiny.push(await timedTurn(child, server, sessionId));
      for (const file of files) {
        copyFileSync(file.pristine, join(workspace.sessionsDir, `${file.id}.json`));
        await child.request("session/load", { sessionId: file.id, cwd: workspace.project, mcpServers: [] });
        afterLoad.get(file.id)!.push(await timedTurn(child, server, file.id));
        measured.get(file.id)!.push(await timedTurn(child, server, file.id));
      }
    } finally {
      await child.close();
    }
  }
  const ms = (values: number[]): string => median(values).toFixed(1);
  return files.map((file) => {
    const steps = measured.get(file.id)!;
    const loaded = afterLoad.get(file.id)!;
    return row({
      id: `long-history.request[${file.label}]`,
      figure: `step start → request's last byte out, ${file.label} history (${file.mb.toFixed(1)} MB file)`,
      unit: "ms",
      samples: steps.map((s) => s.step),
      baseline: { label: "JSON.stringify of the body", samples: steps.map((s) => s.stringify) },
      noRatio: true,
      // No budget: the gap is the AI SDK's stream reading and body building plus the fdatasync before a
      // tool call runs, which mm cannot take below 10 ms at 1 MB (docs/performance.md); a figure to watch.
      note:
        `body ${(median(steps.map((s) => s.bytes)) / 1e6).toFixed(1)} MB, the turn's second step (after a tool result); its headers read after ${ms(steps.map((s) => s.stepHeaders))} ms; tiny session ${ms(tiny.map((s) => s.step))} ms. ` +
        `The turn's first step: prompt sent → request headers read ${ms(steps.map((s) => s.firstStarted))} ms, → last byte ${ms(steps.map((s) => s.firstLast))} ms (tiny: ${ms(tiny.map((s) => s.firstLast))} ms); ` +
        `in the first turn after session/load ${ms(loaded.map((s) => s.firstLast))} ms, its second step ${ms(loaded.map((s) => s.step))} ms`,
    });
  });
};
