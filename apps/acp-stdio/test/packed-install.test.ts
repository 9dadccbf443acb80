/**
 * The published package, end to end: packed once per run, installed with plain npm (no pnpm) into a
 * temporary prefix outside the workspace, empty HOME, offline; the installed `mm-acp`, found on the
 * PATH, and `npx ./<tarball>` each serve initialize → session/new → a prompt against the fake server,
 * launched as the registry entry says. Also: what the tarball holds, and its V8 code cache.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
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

type Manifest = { front: string; frontCache: string; bundle: string; cache: string; provider: string; providerCache: string; mcpClient: string; node: string };
const manifestOf = (packageDir: string): Manifest => JSON.parse(readFileSync(join(packageDir, "dist/mm-acp.json"), "utf8")) as Manifest;

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
  it("holds the bin, the start-up front, the bundle, its provider and their code caches, README, LICENSE and the bundled packages' notices, and nothing to install", async () => {
    const { stdout } = await run("tar", ["-tzf", installed.tarball]);
    const manifest = manifestOf(installed.packageDir);
    const inDist = [manifest.front, manifest.frontCache, manifest.bundle, manifest.cache, manifest.provider, manifest.providerCache, manifest.mcpClient].map((file) => `package/dist/${file}`);
    expect(stdout.trim().split("\n").sort()).toEqual(
      [
        "package/LICENSE",
        "package/README.md",
        "package/package.json",
        "package/bin/load-bundle.cjs",
        "package/bin/mm-acp.js",
        "package/bin/package.json",
        "package/dist/mm-acp.json",
        "package/dist/THIRD-PARTY-NOTICES.txt",
        ...inDist,
      ].sort(),
    );
    const published = JSON.parse(readFileSync(join(installed.packageDir, "package.json"), "utf8")) as Record<string, unknown>;
    expect(published).toMatchObject({ ...packageId(), bin: { "mm-acp": "./bin/mm-acp.js" }, license: "MIT", dependencies: {} });
    expect(published).not.toHaveProperty("devDependencies");
    expect(published).not.toHaveProperty("scripts");
    expect(readFileSync(join(installed.packageDir, "LICENSE"), "utf8")).toBe(readFileSync(join(REPO, "LICENSE"), "utf8"));
    expect(readFileSync(join(installed.packageDir, "dist", manifest.bundle), "utf8")).not.toContain(REPO);
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
    expect(result.stderr).toContain(`mm ${packageId().version} — Bob (bash-first agent), serving ACP on stdio`);
    expect(result.stderr).not.toContain("sk-packed-test");
  });

  it("keeps the build's V8 code caches valid for this node", async () => {
    const manifest = manifestOf(installed.packageDir);
    expect(manifest.node).toBe(`${process.version}-${process.arch}`);
    const check = "process.stdout.write(String(require(process.argv[1]).cacheFits(process.argv[2], process.argv[3])))";
    for (const [file, cache] of [
      [manifest.front, manifest.frontCache],
      [manifest.bundle, manifest.cache],
    ] as const) {
      const fits = await run(process.execPath, ["-e", check, join(installed.packageDir, "bin/load-bundle.cjs"), join(installed.packageDir, "dist", file), join(installed.packageDir, "dist", cache)]);
      expect(fits.stdout).toBe("true");
    }
  });

  it("makes its own code caches under another node, a second after start-up", async () => {
    const copy = join(installed.root, "other-node");
    cpSync(installed.packageDir, copy, { recursive: true });
    const manifest = { ...manifestOf(copy), node: "v0.0.0-other" };
    writeFileSync(join(copy, "dist/mm-acp.json"), JSON.stringify(manifest));
    const cacheHome = installed.emptyDir("xdg-cache");
    const own = (file: string) => join(cacheHome, "mm/v8", `${basename(file, ".cjs")}-${process.version}-${process.arch}.cache`);
    const agent = spawnAgent({ command: [process.execPath, join(copy, "bin/mm-acp.js")], env: { PATH: installed.path, HOME: installed.emptyDir("home-other"), XDG_CACHE_HOME: cacheHome } });
    await agent.run(async () => {
      for (let waited = 0; !(existsSync(own(manifest.bundle)) && existsSync(own(manifest.front))) && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    });
    await stop(agent);
    const check = "process.stdout.write(String(require(process.argv[1]).cacheFits(process.argv[2], process.argv[3])))";
    for (const file of [manifest.front, manifest.bundle]) {
      const fits = await run(process.execPath, ["-e", check, join(copy, "bin/load-bundle.cjs"), join(copy, "dist", file), own(file)]);
      expect(fits.stdout).toBe("true");
    }
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
