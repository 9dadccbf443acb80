/**
 * (4b) What a long history costs each model step: every step re-sends the whole history. Sessions of
 * about 1 MB and 10 MB (bench/scenarios/sessions.ts's generator) are loaded in a fresh agent each run;
 * on each, a warm-up turn, then the measured turn. The fake server (same process, same clock) stamps
 * when it read the request's headers and the first and last bytes of its body; the bench stamps when
 * it sent `session/prompt`. Figure: prompt sent → last byte of the request body read by the server,
 * an upper bound of "step start → last byte leaving the agent" (it adds the prompt's trip over stdin
 * and the turn's work before its first step; both are in the tiny session's figure, printed beside).
 * Baseline: JSON.stringify, in the bench process, of the body the server received for that request
 * (once warmed on the same body): the cost of serialising that request once.
 */
import { copyFileSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeOpenAI, RecordedRequest } from "@mm/fake-openai";
import { text } from "@mm/fake-openai";
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

type StepTiming = { readonly started: number; readonly first: number; readonly last: number; readonly stringify: number; readonly bytes: number };

const timedStep = async (child: Launched, server: FakeOpenAI, sessionId: string): Promise<StepTiming> => {
  const before = server.requests.length;
  server.enqueue(text(["ok"]));
  const t0 = now();
  const response = (await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "one more" }] })) as { stopReason: string };
  if (response.stopReason !== "end_turn") throw new Error(`turn ended ${response.stopReason}: ${child.stderr().slice(-2000)}`);
  const request: RecordedRequest | undefined = server.requests[before];
  if (request?.timing === undefined || server.requests.length !== before + 1) throw new Error("expected one model request per turn");
  JSON.stringify(request.body);
  const s0 = now();
  const body = JSON.stringify(request.body);
  const stringify = now() - s0;
  return {
    started: request.timing.arrivedAt - t0,
    first: request.timing.firstByteAt - t0,
    last: request.timing.lastByteAt - t0,
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
  for (let run = 0; run < RUNS; run++) {
    const child = launch({ command: withConfig(agent.command, config), cwd: workspace.project, env: workspace.env });
    try {
      await child.request("initialize", INITIALIZE);
      const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
      await timedStep(child, server, sessionId); // loads the AI SDK
      tiny.push(await timedStep(child, server, sessionId));
      for (const file of files) {
        copyFileSync(file.pristine, join(workspace.sessionsDir, `${file.id}.json`));
        await child.request("session/load", { sessionId: file.id, cwd: workspace.project, mcpServers: [] });
        await timedStep(child, server, file.id);
        measured.get(file.id)!.push(await timedStep(child, server, file.id));
      }
    } finally {
      await child.close();
    }
  }
  const ms = (values: number[]): string => median(values).toFixed(1);
  return files.map((file) => {
    const steps = measured.get(file.id)!;
    return row({
      id: `long-history.request[${file.label}]`,
      figure: `step start → request's last byte out, ${file.label} history (${file.mb.toFixed(1)} MB file)`,
      unit: "ms",
      samples: steps.map((s) => s.last),
      baseline: { label: "JSON.stringify of the body", samples: steps.map((s) => s.stringify) },
      targets: [{ on: "ratio", max: 2 }],
      note:
        `body ${(median(steps.map((s) => s.bytes)) / 1e6).toFixed(1)} MB; prompt sent → request headers read ${ms(steps.map((s) => s.started))} ms, ` +
        `→ first body byte ${ms(steps.map((s) => s.first))} ms, → last ${ms(steps.map((s) => s.last))} ms; ` +
        `the same on a tiny session: ${ms(tiny.map((s) => s.started))} / ${ms(tiny.map((s) => s.first))} / ${ms(tiny.map((s) => s.last))} ms`,
    });
  });
};
