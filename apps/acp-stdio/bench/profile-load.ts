/**
 * Profiles `session/load` of the benchmark's 10 MB session (optionally with a pending journal of
 * `journaled` messages): one agent under `--cpu-prof` (profile in `<dir>`), `initialize`, the load,
 * exit; then prints the functions with the most self time.
 * `tsx --conditions=mm-source apps/acp-stdio/bench/profile-load.ts [journaled] [dir]`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeOpenAI } from "@mm/fake-openai";
import { INITIALIZE, launch } from "./lib/agent.js";
import { now } from "./lib/stats.js";
import { BIN_JS, createWorkspace, withConfig } from "./lib/workspace.js";
import { journaledFiles } from "./scenarios/sessions.js";
import { runScript } from "./lib/run-script.js";

const journaled = Number(process.argv[2] ?? 0);
const dir = process.argv[3] ?? "/tmp/mm-load-profile";
const ID = "20260101-000003-00001oad".replace("1oad", "10ad");

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const topSelf = (profile: Profile, count: number): string[] => {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const file = node.callFrame.url.split("/").at(-1) ?? "";
    const key = `${node.callFrame.functionName || "(anonymous)"} ${file}:${node.callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, count).map(([key, ms]) => `${ms.toFixed(1).padStart(7)} ms  ${key}`);
};

const main = async (): Promise<void> => {
  const server = await startFakeOpenAI();
  const workspace = createWorkspace(server.url);
  try {
    mkdirSync(workspace.sessionsDir, { recursive: true, mode: 0o700 });
    const files = journaledFiles(workspace.project, 5000 + journaled, journaled, ID);
    writeFileSync(join(workspace.sessionsDir, `${ID}.json`), files.document);
    if (journaled > 0) writeFileSync(join(workspace.sessionsDir, `${ID}.journal`), files.journal);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const command = withConfig({ file: process.execPath, args: ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--cpu-prof-interval=100", BIN_JS] }, workspace.config("profile", { sessions: true }));
    const child = launch({ command, cwd: workspace.project, env: workspace.env });
    await child.request("initialize", INITIALIZE);
    const t0 = now();
    await child.request("session/load", { sessionId: ID, cwd: workspace.project, mcpServers: [] });
    process.stderr.write(`profile-load: session/load of ${5000 + journaled} messages (${journaled} in the journal) took ${(now() - t0).toFixed(0)} ms\n`);
    await child.close();
    const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
    if (file !== undefined) process.stderr.write(`${topSelf(JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile, 30).join("\n")}\n`);
  } finally {
    await server.close();
    workspace.remove();
  }
};

runScript("profile-load", main);
