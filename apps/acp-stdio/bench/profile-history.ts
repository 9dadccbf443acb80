/**
 * Profiles mm's turns on a long history: one agent process per case under `--cpu-prof` (profiles in
 * `<dir>/<case>`, default /tmp/mm-history-profiles), sessions on, the 10 MB session of the benchmark
 * loaded, one warm-up turn, then `turns` more (`base`: none, `turns`: 3); in each turn the model calls
 * `read_skill`, then answers. Subtracting `base` from `turns` and dividing by 3 shows where a turn's
 * CPU goes when the history is long: building and sending its two requests, and saving the session. `tsx apps/acp-stdio/bench/profile-history.ts [messages] [dir]`.
 */
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeOpenAI, text, toolCalls } from "@mm/fake-openai";
import { encodeSessionDocument } from "@mm/node";
import { INITIALIZE, launch } from "./lib/agent.js";
import { BIN_JS, createWorkspace, withConfig } from "./lib/workspace.js";
import { bigHistory } from "./scenarios/sessions.js";
import { runScript } from "./lib/run-script.js";

const messages = Number(process.argv[2] ?? 5000);
const root = process.argv[3] ?? "/tmp/mm-history-profiles";
const ID = "20260101-000002-0010face";

const main = async (): Promise<void> => {
  const server = await startFakeOpenAI([], { usage: { promptTokens: 100, completionTokens: 10 } });
  const workspace = createWorkspace(server.url);
  try {
    mkdirSync(workspace.sessionsDir, { recursive: true, mode: 0o700 });
    const encoded = encodeSessionDocument(bigHistory(workspace.project, messages, ID));
    if (encoded.isErr()) throw new Error(encoded.error);
    const pristine = join(workspace.root, "pristine.json");
    writeFileSync(pristine, encoded.value);
    for (const [name, turns] of [["base", 0], ["turns", 3]] as const) {
      const dir = join(root, name);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      copyFileSync(pristine, join(workspace.sessionsDir, `${ID}.json`));
      const command = withConfig({ file: process.execPath, args: ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--cpu-prof-interval=100", BIN_JS] }, workspace.config("profile", { sessions: true }));
      const child = launch({ command, cwd: workspace.project, env: workspace.env });
      await child.request("initialize", INITIALIZE);
      await child.request("session/load", { sessionId: ID, cwd: workspace.project, mcpServers: [] });
      for (let turn = 0; turn < 1 + turns; turn++) {
        // A tool call first: the turn's second step re-sends the history, as every tool call does.
        server.enqueue(toolCalls([{ name: "read_skill", arguments: { name: "no-such-skill" } }]), text(["ok"]));
        await child.request("session/prompt", { sessionId: ID, prompt: [{ type: "text", text: "one more" }] });
      }
      await child.close();
      process.stderr.write(`profile-history: ${name} (1 + ${turns} turn(s)) in ${dir}\n`);
    }
  } finally {
    await server.close();
    workspace.remove();
  }
};

runScript("profile-history", main);
