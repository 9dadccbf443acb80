/**
 * @mm/core, @mm/node and @mm/ai-model as another program gets them: packed by `pnpm pack` (each
 * package's prepack builds JavaScript and .d.ts), installed from the tarballs by plain npm into a
 * project outside the workspace, then used there — one turn run by plain `node` (ESM, no loader) with
 * the in-memory adapters, and a TypeScript consumer type-checked under strict,
 * exactOptionalPropertyTypes and nodenext.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startFakeOpenAI } from "@mm/fake-openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const WORKSPACE = join(import.meta.dirname, "..", "..", "..");
const PACKAGES = ["core", "node", "ai-model"];

const RUN_A_TURN = `
import { createAgent } from "@mm/core";
import { counterHex, inMemoryFileSystem, inMemorySkillCatalogue, manualClock, scriptedGate, scriptedModel, scriptedShell, textReply, toolReply } from "@mm/core/testing";
const fs = inMemoryFileSystem({ "/p/a.txt": "one two three\\n" });
const gate = scriptedGate("allow");
const model = scriptedModel(toolReply([{ name: "read_file", input: { path: "a.txt" } }]), textReply("It has three words."));
const agent = createAgent({ model, fs, shell: scriptedShell(), gate, skills: inMemorySkillCatalogue(), clock: manualClock(), random: counterHex() });
const session = await agent.startSession("/p");
let text = "";
const result = await agent.prompt(session.id, [{ type: "text", text: "count" }], (e) => { if (e.type === "text") text += e.text; });
console.log(JSON.stringify({ result: result._unsafeUnwrap(), text, asked: gate.requests.map((r) => r.call.title), history: agent.session(session.id).history.length }));
`;

const CONSUMER = `
import { builtinTools, completed, createAgent, defineTool, object, string, type Agent, type AgentDeps, type Infer, type TurnEvent } from "@mm/core";
import { inMemoryFileSystem } from "@mm/core/testing";
import { bashShell, cryptoRandomHex, jsonSessionStore, loadDiskSkillCatalogue, nodeFileSystem, platformLine, systemClock } from "@mm/node";
import { aiSdkModel } from "@mm/ai-model";

const input = object({ text: string() });
const shout = defineTool({
  name: "shout",
  description: "Upper-cases a text.",
  kind: "other",
  gated: false,
  input,
  title: (i: Infer<typeof input>) => \`shout: \${i.text}\`,
  run: async (i) => completed(i.text.toUpperCase()),
});

export const build = async (): Promise<Agent> => {
  const deps: AgentDeps = {
    model: aiSdkModel({ model: "gpt-4.1-mini", api: "chat", apiKey: undefined }),
    fs: nodeFileSystem(),
    shell: bashShell({ env: {} }),
    skills: await loadDiskSkillCatalogue([], () => undefined),
    gate: { ask: async () => "allow" },
    clock: systemClock,
    random: cryptoRandomHex,
    store: jsonSessionStore({ dir: ".mm/sessions" }),
    tools: [...builtinTools, shout],
  };
  return createAgent(deps, { os: platformLine() });
};
export const onEvent = (event: TurnEvent): string => (event.type === "text" ? event.text : "");
export const files = inMemoryFileSystem({});
`;

let root = "";
let project = "";

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "mm-libraries-"));
  for (const name of PACKAGES) {
    await run("corepack", ["pnpm", "pack", "--pack-destination", root], {
      cwd: join(WORKSPACE, "packages", name),
      env: { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: "0" },
    });
  }
  const tarballs = readdirSync(root).filter((f) => f.endsWith(".tgz"));
  project = join(root, "consumer");
  mkdirSync(project);
  const dependencies = Object.fromEntries(tarballs.map((t) => [`@mm/${t.replace(/^mm-/, "").replace(/-\d+\.\d+\.\d+\.tgz$/, "")}`, `file:../${t}`]));
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module", dependencies }));
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"], {
    cwd: project,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
}, 240_000);

afterAll(() => {
  if (root !== "") rmSync(root, { recursive: true, force: true });
}, 60_000);

describe("the libraries, installed from their tarballs outside the workspace", () => {
  it("hold built JavaScript and declarations, no sources or tests", () => {
    const core = join(project, "node_modules", "@mm", "core");
    const files = readdirSync(join(core, "dist"), { recursive: true }).map(String);
    expect(files).toContain("index.js");
    expect(files).toContain("index.d.ts");
    expect(files).toContain(join("testing", "index.js"));
    expect(files.filter((f) => f.endsWith(".test.js") || (f.endsWith(".ts") && !f.endsWith(".d.ts")))).toEqual([]);
    expect(readdirSync(core).sort()).toEqual(["LICENSE", "README.md", "dist", "package.json"]);
    // Nothing of the tests in any library, even packed from a checkout whose dist an older build left.
    for (const name of ["core", "node", "ai-model"]) {
      const shipped = readdirSync(join(project, "node_modules", "@mm", name, "dist"), { recursive: true }).map(String);
      expect(shipped.filter((f) => /(^|\/)test-support\.|\.test\.|(^|\/)bench/.test(f))).toEqual([]);
    }
  });

  it("run a turn under plain node, ESM, no loader", { timeout: 30_000 }, async () => {
    writeFileSync(join(project, "turn.mjs"), RUN_A_TURN);
    const { stdout } = await run(process.execPath, ["turn.mjs"], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ result: { stopReason: "end_turn" }, text: "It has three words.", asked: ["read_file: a.txt"], history: 5 });
  });

  /** The `lang` blocks of a section of @mm/core's README (the embedding guide), as written. */
  const guide = (heading: string, lang: string): string[] => {
    const readme = readFileSync(join(WORKSPACE, "packages/core/README.md"), "utf8");
    const start = readme.indexOf(`\n${heading}\n`);
    expect(start, heading).toBeGreaterThanOrEqual(0);
    const body = readme.slice(start + heading.length + 2).split(/\n## /)[0]!;
    expect(body, heading).not.toBe("");
    return [...body.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, "gm"))].map((m) => m[1]!);
  };
  const runSnippet = async (replies: Parameters<typeof startFakeOpenAI>[0]) => {
    const snippet = guide("## From JavaScript", "js")[0];
    expect(snippet).toContain("createAgent(");
    writeFileSync(join(project, "bob.mjs"), snippet!);
    const fake = await startFakeOpenAI(replies);
    try {
      const { stdout, stderr } = await run(process.execPath, ["bob.mjs"], {
        cwd: project,
        env: { PATH: process.env.PATH ?? "", HOME: project, MM_BASE_URL: fake.url, MM_MODEL: "fake-model" },
      });
      return { stdout, stderr, requests: fake.requests };
    } finally {
      await fake.close();
    }
  };

  it("run the core README's embedding snippet word for word against an OpenAI-compatible server", { timeout: 30_000 }, async () => {
    const { stdout, requests } = await runSnippet([{ kind: "text", chunks: ["Two files ", "and a folder."] }]);
    expect(stdout).toBe("Two files and a folder.\nend_turn\n");
    expect(requests[0]!.body).toMatchObject({ model: "fake-model" });
  });

  it("whose gate lets a model answer its own prompt: ls runs, a command that changes things is refused", { timeout: 30_000 }, async () => {
    writeFileSync(join(project, "marker.txt"), "x");
    const { stdout, stderr, requests } = await runSnippet([
      { kind: "tool-calls", calls: [{ name: "bash", arguments: { command: "ls" } }] },
      { kind: "tool-calls", calls: [{ name: "bash", arguments: { command: "rm marker.txt" } }] },
      { kind: "tool-calls", calls: [{ name: "bash", arguments: { command: "ls; rm marker.txt" } }] },
      { kind: "text", chunks: ["It holds marker.txt."] },
    ]);
    expect(stdout).toBe("It holds marker.txt.\nend_turn\n");
    expect(stderr).toBe("[bash: ls: completed]\n[bash: rm marker.txt: failed]\n[bash: ls; rm marker.txt: failed]\n");
    expect(JSON.stringify(requests[1]!.body)).toContain("marker.txt");
    expect(readdirSync(project)).toContain("marker.txt");
  });

  it("which prints why a turn failed: the reason of a failed turn, not just failed", { timeout: 30_000 }, async () => {
    const { stdout } = await runSnippet([{ kind: "status", code: 401, body: { error: { message: "Incorrect API key provided" } } }]);
    expect(stdout).toMatch(/^\nfailed: .*401.*Incorrect API key provided/);
  });

  /** The guide's project (its package.json and tsconfig.json as written, its two files) in `dir`, with Node's types installed. */
  const guideProject = (dir: string, manifest?: object): string[] => {
    const files = guide("## From TypeScript", "ts");
    const names = files.map((file) => /^\/\/ ([\w-]+\.ts) /.exec(file)?.[1]);
    expect(names).toEqual(["word-count.ts", "agent.ts"]);
    mkdirSync(join(dir, "node_modules", "@types"), { recursive: true });
    symlinkSync(join(WORKSPACE, "node_modules", "@types", "node"), join(dir, "node_modules", "@types", "node"));
    // The tarballs installed in the outer project resolve from this one (Node looks up the tree).
    const [packageJson, tsconfig] = guide("## From TypeScript", "json");
    writeFileSync(join(dir, "package.json"), manifest === undefined ? packageJson! : JSON.stringify(manifest));
    writeFileSync(join(dir, "tsconfig.json"), tsconfig!);
    files.forEach((file, i) => writeFileSync(join(dir, names[i]!), file));
    return names as string[];
  };

  for (const [compiler, tsc] of Object.entries(COMPILERS)) {
    it(`compile the core README's TypeScript files with its tsconfig.json as written, in a "type": "module" project (${compiler})`, async () => {
      const dir = join(project, `guide-${compiler}`);
      guideProject(dir);
      expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).type).toBe("module");
      expect(await compile(tsc, dir)).toBe("");
      expect(readdirSync(join(dir, "dist")).sort()).toEqual(["agent.js", "word-count.js"]);
      // The same under exactOptionalPropertyTypes and noUncheckedIndexedAccess, for a stricter project.
      const strict = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")) as { compilerOptions: object };
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          ...strict,
          compilerOptions: { ...strict.compilerOptions, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noEmit: true },
        }),
      );
      expect(await compile(tsc, dir)).toBe("");
    }, 60_000);
  }

  it('and without "types": ["node"] the newest TypeScript finds no process (the README says why it is there)', async () => {
    const dir = join(project, "guide-no-types");
    guideProject(dir);
    const config = JSON.parse(readFileSync(join(dir, "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
    delete config.compilerOptions.types;
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
    expect(await compile(COMPILERS.newest, dir)).toMatch(/TS2591|TS2580/);
  }, 60_000);

  it("and the same files are refused in a CommonJS project (TS1309), as the README warns", async () => {
    const dir = join(project, "guide-cjs");
    guideProject(dir, { name: "cjs", type: "commonjs" });
    expect(await compile(COMPILERS.pinned, dir)).toContain("TS1309");
  }, 60_000);

  it("type-check a TypeScript consumer under strict, exactOptionalPropertyTypes and nodenext", async () => {
    writeFileSync(join(project, "consumer.ts"), CONSUMER);
    expect(await typeCheck(project, ["consumer.ts"])).toBe("");
  }, 60_000);
});

/** The compilers the guide is checked with: the TypeScript the workspace pins, and the newest (7.x, `typescript-latest`). */
const COMPILERS = {
  pinned: join(WORKSPACE, "node_modules", "typescript", "bin", "tsc"),
  newest: join(WORKSPACE, "apps", "embed-example", "node_modules", "typescript-latest", "bin", "tsc"),
};

/** `tsc -p tsconfig.json` in `dir`: its output, "" when it compiles. */
const compile = async (tsc: string, dir: string): Promise<string> =>
  run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir }).then(
    () => "",
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );

/** tsc on `files` of `dir` under strict, exactOptionalPropertyTypes and nodenext: its output, "" when they check. */
const typeCheck = async (dir: string, files: readonly string[]): Promise<string> => {
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        lib: ["es2023"],
        types: ["node"],
        typeRoots: [join(WORKSPACE, "node_modules", "@types")],
        noEmit: true,
        skipLibCheck: false,
      },
      files,
    }),
  );
  const tsc = join(WORKSPACE, "node_modules", "typescript", "bin", "tsc");
  return run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir }).then(
    () => "",
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
};
