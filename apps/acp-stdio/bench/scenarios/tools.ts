/**
 * (3) Tool-call overhead. The server answers one model step with 200 `read_file` calls (200 distinct
 * small files, so the loop detector stays out of it), then a final text step; every permission request
 * is answered `allow` (once) at once by the client. The same turn with 1 call is the reference:
 * overhead per call = (T(200) − T(1)) / 199 − the tool itself, where "the tool itself" is reading the
 * same files with fs.promises.readFile in the benchmark process. What remains per call is mm's work plus
 * the ACP traffic every call costs: `tool_call`, the permission round trip, `tool_call_update`s.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FakeOpenAI } from "@mm/fake-openai";
import { text, toolCalls } from "@mm/fake-openai";
import { INITIALIZE, launch } from "../lib/agent.js";
import { row, type Row } from "../lib/report.js";
import { median, now } from "../lib/stats.js";
import { agentCommands, withConfig, type Workspace } from "../lib/workspace.js";

const CALLS = 200;
const RUNS = 5;

const fileName = (i: number): string => `files/f${String(i).padStart(3, "0")}.txt`;

const callsReply = (count: number) => toolCalls(Array.from({ length: count }, (_, i) => ({ name: "read_file", arguments: { path: fileName(i) } })));

export const tools = async (workspace: Workspace, server: FakeOpenAI): Promise<Row[]> => {
  mkdirSync(join(workspace.project, "files"), { recursive: true });
  for (let i = 0; i < CALLS; i++) {
    writeFileSync(join(workspace.project, fileName(i)), `${Array.from({ length: 5 }, (_, l) => `line ${l + 1} of file ${i}`).join("\n")}\n`);
  }
  const agent = agentCommands()[0]!;
  let completed = 0;
  const child = launch({
    command: withConfig(agent.command, workspace.config("tools", {})),
    cwd: workspace.project,
    env: workspace.env,
    permission: "allow",
    onUpdate: (n) => {
      if (n.update.sessionUpdate === "tool_call_update" && n.update.status === "completed") completed++;
    },
  });
  const many: number[] = [];
  const one: number[] = [];
  const self: number[] = [];
  const turn = async (count: number): Promise<number> => {
    const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
    server.enqueue(callsReply(count), text("done"));
    completed = 0;
    const permissionsBefore = child.permissions();
    const t0 = now();
    const response = (await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "read them" }] })) as { stopReason: string };
    const elapsed = now() - t0;
    if (response.stopReason !== "end_turn") throw new Error(`tool turn ended ${response.stopReason}`);
    if (completed !== count || child.permissions() - permissionsBefore !== count) {
      throw new Error(`expected ${count} completed calls and permission requests, saw ${completed} / ${child.permissions() - permissionsBefore}`);
    }
    return elapsed;
  };
  const readAll = async (): Promise<number> => {
    const t0 = now();
    for (let i = 0; i < CALLS; i++) await readFile(join(workspace.project, fileName(i)), "utf8");
    return (now() - t0) / CALLS;
  };
  try {
    await child.request("initialize", INITIALIZE);
    await turn(CALLS); // warm-up: JIT, the AI SDK, the page cache
    await turn(1);
    await readAll();
    for (let run = 0; run < RUNS; run++) {
      if (run % 2 === 0) {
        many.push(await turn(CALLS));
        one.push(await turn(1));
      } else {
        one.push(await turn(1));
        many.push(await turn(CALLS));
      }
      self.push(await readAll());
    }
  } finally {
    await child.close();
  }
  const perCall = (median(many) - median(one)) / (CALLS - 1);
  const overhead = perCall - median(self);
  return [
    row({
      id: "tools.turn",
      figure: `turn with ${CALLS} read_file calls`,
      unit: "ms",
      samples: many,
      baseline: { label: "same turn, 1 call", samples: one },
    }),
    row({
      id: "tools.overhead-per-call",
      figure: "overhead per tool call",
      unit: "ms",
      samples: many.map((m, i) => (m - one[i]!) / (CALLS - 1) - self[i]!),
      value: overhead,
      baseline: { label: "readFile itself", samples: self },
      noRatio: true,
      targets: [{ on: "value", max: 2 }],
      note: `per call ${perCall.toFixed(3)} ms including the read; the tool itself ${median(self).toFixed(3)} ms`,
    }),
  ];
};
