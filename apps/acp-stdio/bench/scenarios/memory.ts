/**
 * (5b) Peak RSS while `bash` prints 200 MB: a fresh agent each run (VmHWM only grows), one turn whose
 * model step calls bash with a command printing 200,000,000 bytes, permission allowed at once; the
 * agent's VmHWM (kernel-tracked peak RSS) is read when the turn has ended. The bash tool keeps only
 * head and tail of the output (tools.maxOutputBytes, 30,000 by default).
 */
import type { FakeOpenAI } from "@mm/fake-openai";
import { text, toolCalls } from "@mm/fake-openai";
import { INITIALIZE, launch } from "../lib/agent.js";
import { peakRssMb } from "../lib/proc.js";
import { row, type Row } from "../lib/report.js";
import { now } from "../lib/stats.js";
import { agentCommands, withConfig, type Workspace } from "../lib/workspace.js";

const RUNS = 3;
export const FLOOD_COMMAND = "head -c 200000000 /dev/zero | tr '\\0' 'a'";

export const memory = async (workspace: Workspace, server: FakeOpenAI, idleRss: { agent: number[]; floor: number[] }): Promise<Row[]> => {
  const agent = agentCommands()[0]!;
  const config = workspace.config("memory", {});
  const peaks: number[] = [];
  const before: number[] = [];
  const durations: number[] = [];
  let output = "";
  for (let run = 0; run < RUNS; run++) {
    const child = launch({
      command: withConfig(agent.command, config),
      cwd: workspace.project,
      env: workspace.env,
      onUpdate: (n) => {
        const update = n.update as { sessionUpdate: string; status?: string; rawOutput?: { output?: string } };
        if (update.sessionUpdate === "tool_call_update" && update.status === "completed") output = update.rawOutput?.output ?? "";
      },
    });
    try {
      await child.request("initialize", INITIALIZE);
      const { sessionId } = (await child.request("session/new", { cwd: workspace.project, mcpServers: [] })) as { sessionId: string };
      before.push(peakRssMb(child.pid));
      server.enqueue(toolCalls([{ name: "bash", arguments: { command: FLOOD_COMMAND } }]), text("done"));
      const t0 = now();
      const response = (await child.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "flood" }] })) as { stopReason: string };
      durations.push(now() - t0);
      if (response.stopReason !== "end_turn") throw new Error(`flood turn ended ${response.stopReason}`);
      peaks.push(peakRssMb(child.pid));
      if (!output.includes("[exit code: 0]")) throw new Error(`bash flood did not complete: ${output.slice(-200)}`);
    } finally {
      await child.close();
    }
  }
  return [
    row({
      id: "memory.idle-rss",
      figure: "RSS at idle after session/new",
      unit: "MB",
      samples: idleRss.agent,
      baseline: { label: "bare node", samples: idleRss.floor },
      targets: [{ on: "value", max: 80 }],
    }),
    row({
      id: "memory.peak-rss-bash-flood",
      figure: "peak RSS while bash prints 200 MB",
      unit: "MB",
      samples: peaks,
      baseline: { label: "peak before the turn", samples: before },
      targets: [{ on: "value", max: 150 }],
      note: `the turn took ${durations.map((d) => d.toFixed(0)).join(", ")} ms`,
    }),
  ];
};
