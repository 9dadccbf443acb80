/**
 * Where a benchmark runs: a temp dir with its own HOME (no user skills or config leak in), a project
 * dir the sessions work in, and a config file pointing the agent at the local fake server.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "./agent.js";

export const APP_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const REPO_DIR = resolve(APP_DIR, "../..");
/** The agent measured: this repository's build, or another's (MM_BENCH_BIN, to set two builds side by side). */
export const BIN_JS = process.env.MM_BENCH_BIN || join(APP_DIR, "bin/mm-acp.js");

export type Workspace = {
  readonly root: string;
  readonly home: string;
  readonly project: string;
  readonly sessionsDir: string;
  readonly env: Readonly<Record<string, string>>;
  /** Writes a config file for this scenario and returns its path. */
  readonly config: (name: string, settings: { sessions?: boolean; maxOutputBytes?: number }) => string;
  readonly remove: () => void;
};

export const createWorkspace = (serverUrl: string): Workspace => {
  const root = mkdtempSync(join(tmpdir(), "mm-bench-"));
  const home = join(root, "home");
  const project = join(root, "project");
  const sessionsDir = join(root, "sessions");
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env = {
    // Commands run by bash find the node running the benchmark first.
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    LANG: "C.UTF-8",
  };
  const config = (name: string, settings: { sessions?: boolean; maxOutputBytes?: number }): string => {
    const path = join(root, `${name}.config.json`);
    writeFileSync(
      path,
      JSON.stringify({
        model: { name: "fake-model", baseURL: serverUrl, api: "chat" },
        sessions: { enabled: settings.sessions ?? false, dir: sessionsDir },
        skills: { dirs: [] },
        ...(settings.maxOutputBytes !== undefined ? { tools: { maxOutputBytes: settings.maxOutputBytes } } : {}),
      }),
    );
    return path;
  };
  return { root, home, project, sessionsDir, env, config, remove: () => rmSync(root, { recursive: true, force: true }) };
};

/** The ways of starting mm-acp the benchmark measures: what editors spawn. */
export const agentCommands = (): { readonly label: string; readonly command: Command }[] => {
  // MM_BENCH_NODE_FLAGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the agent under the benchmark.
  const flags = (process.env.MM_BENCH_NODE_FLAGS ?? "").split(" ").filter((f) => f !== "");
  return [{ label: "node bin/mm-acp.js", command: { file: process.execPath, args: [...flags, BIN_JS] } }];
};

export const withConfig = (command: Command, configPath: string): Command => ({
  file: command.file,
  args: [...command.args, "--config", configPath],
});
