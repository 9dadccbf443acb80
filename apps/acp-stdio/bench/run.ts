/**
 * `pnpm bench`: spawns the built mm-acp with the ACP SDK's client and a local OpenAI-compatible
 * server (@mm/fake-openai, in this process), and prints one table: each figure the median of several
 * runs next to a baseline measured in the same run, with the ratio and the target. The table is also
 * written as JSON to bench/results/<timestamp>.json at the repository root.
 *
 * `tsx --conditions=mm-source apps/acp-stdio/bench/run.ts [startup] [paced] [flood] [tools] [sessions] [history] [memory] [changes] [sandbox] [live]`
 * runs a subset.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI } from "@mm/fake-openai";
import { packAndInstall, type PackedInstall } from "../test/packed-package.js";
import { tempRunDir } from "../../../vitest.temp-dir.js";
import { installedCommands } from "./lib/installed.js";
import { buildFloorAgent } from "./floor/build.js";
import { renderTable, type Row } from "./lib/report.js";
import { now } from "./lib/stats.js";
import { agentCommands, createWorkspace, REPO_DIR } from "./lib/workspace.js";
import { changes } from "./scenarios/changes.js";
import { liveOutput } from "./scenarios/live-output.js";
import { longHistory } from "./scenarios/long-history.js";
import { memory } from "./scenarios/memory.js";
import { paced } from "./scenarios/paced.js";
import { flood } from "./scenarios/flood.js";
import { sandbox } from "./scenarios/sandbox.js";
import { sessions } from "./scenarios/sessions.js";
import { startup } from "./scenarios/startup.js";
import { tools } from "./scenarios/tools.js";

const ALL = ["startup", "paced", "flood", "tools", "sessions", "history", "memory", "changes", "sandbox", "live"] as const;
type Scenario = (typeof ALL)[number];

const main = async (): Promise<void> => {
  const asked = process.argv.slice(2).filter((a): a is Scenario => (ALL as readonly string[]).includes(a));
  const chosen = new Set<Scenario>(asked.length > 0 ? asked : ALL);
  const temp = tempRunDir("bench");
  const started = now();
  const load0 = loadavg();
  const server = await startFakeOpenAI([], { usage: { promptTokens: 100, completionTokens: 10 } });
  const workspace = createWorkspace(server.url);
  const rows: Row[] = [];
  const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
  let installed: PackedInstall | undefined;
  try {
    log(
      `measuring ${agentCommands()
        .map((a) => a.label)
        .join(" and ")}; node ${process.version}, ${cpus().length} CPU(s)`,
    );
    let idleRss: { agent: number[]; floor: number[] } = { agent: [], floor: [] };
    if (chosen.has("startup")) {
      log("packing the package and installing it with npm…");
      installed = await packAndInstall();
    }
    if (chosen.has("startup") || chosen.has("memory")) {
      log("start-up…");
      const result = await startup(workspace, installed ? installedCommands(installed) : []);
      if (chosen.has("startup")) rows.push(...result.rows);
      idleRss = result.idleRss;
    }
    if (chosen.has("paced")) {
      log("paced answers (100 chunks a second for 20 s), mm and the floor agent…");
      rows.push(...(await paced(workspace, server, await buildFloorAgent(`${workspace.root}/floor-paced`))));
    }
    if (chosen.has("flood")) {
      log("unpaced answers of 2,000 and 20,000 chunks, mm and the floor agent…");
      rows.push(...(await flood(workspace, server, await buildFloorAgent(`${workspace.root}/floor-flood`))));
    }
    if (chosen.has("tools")) {
      log("tool calls…");
      rows.push(...(await tools(workspace, server)));
    }
    if (chosen.has("sessions")) {
      log("sessions…");
      rows.push(...(await sessions(workspace, server)));
    }
    if (chosen.has("history")) {
      log("long histories…");
      rows.push(...(await longHistory(workspace, server)));
    }
    if (chosen.has("memory")) {
      log("memory…");
      rows.push(...(await memory(workspace, server, idleRss)));
    }
    if (chosen.has("changes")) {
      log("bash diffs on a 20,000-file repository…");
      rows.push(...(await changes()));
    }
    if (chosen.has("sandbox")) {
      log("sandboxed bash calls…");
      rows.push(...(await sandbox(log)));
    }
    if (chosen.has("live")) {
      log("live command output…");
      rows.push(...(await liveOutput(workspace, server)));
    }
  } finally {
    await server.close();
    workspace.remove();
    installed?.remove();
    temp.restore();
  }
  const elapsed = (now() - started) / 1000;
  const load1 = loadavg();
  const table = renderTable(rows);
  const notes = rows.filter((r) => r.note).map((r) => `- ${r.figure}: ${r.note}`);
  const context = `node ${process.version} · ${cpus().length} × ${cpus()[0]?.model ?? "cpu"} · load average ${load0[0]!.toFixed(2)} → ${load1[0]!.toFixed(2)} · ${elapsed.toFixed(0)} s`;
  process.stdout.write(`\n${table}\n\n${notes.join("\n")}\n${context}\n`);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const dir = join(REPO_DIR, "bench/results");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${stamp}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model,
        loadAverage: { before: load0, after: load1 },
        seconds: elapsed,
        commands: agentCommands().map((a) => a.label),
        rows,
      },
      null,
      2,
    )}\n`,
  );
  process.stdout.write(`written to ${file}\n`);
  const missed = rows.filter((r) => r.met === false).length;
  if (missed > 0) process.stdout.write(`${missed} target(s) missed\n`);
};

main().catch((error: unknown) => {
  process.stderr.write(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
