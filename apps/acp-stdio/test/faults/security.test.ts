/**
 * Security: session-id path tricks never reach the file system (`session/load` and `session/prompt`,
 * proven with decoys and, where strace exists, with a trace of every file syscall); symlinks and hard
 * links planted in the sessions dir are not followed to write elsewhere; the API key never appears on
 * stderr, stdout or in session files; the permission gate cannot be bypassed.
 */
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type * as acp from "@agentclientprotocol/sdk";
import type { MmConfig } from "../../src/config/index.js";
import { inMemorySessionStore, textReply, toolReply } from "@mm/core/testing";
import { startFakeOpenAI, status, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { inMemoryAcp, type PermissionAnswer } from "../in-memory-acp.js";
import { configFile, filesUnder, hasStackTrace, openSession, promptText, removeTempDirs, sleep, spawnRaw, tempDir, waitFor, type RawAgent } from "./helpers.js";

let tried = 0;
afterAll(() => removeTempDirs());
afterAll(() =>
  console.error(`security: ${tried} attacks tried (session-id tricks, planted links, hostile files, key leaks, permission-gate bypasses); none got through`),
);

let server: FakeOpenAI;
let agent: RawAgent | undefined;
beforeEach(async () => {
  server = await startFakeOpenAI();
});
afterEach(async () => {
  if (agent !== undefined && !agent.hasExited()) agent.child.kill("SIGKILL");
  agent = undefined;
  await server.close();
});

const hasStrace = (() => {
  try {
    execFileSync("strace", ["-qq", "-o", "/dev/null", "true"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

const SESSION_ID = /^\d{8}-\d{6}-[0-9a-f]{8}$/;

describe("session ids never become paths", () => {
  const TRICKS = [
    "../../decoy",
    "../decoy",
    "decoy",
    "/ABS/decoy",
    "20260101-000000-abcdef01/../../../decoy",
    "20260101-000000-abcdef01\u0000",
    "\u0000",
    "\u0000../../decoy",
    "x".repeat(1_000_000),
    "..",
    ".",
    "",
    " ",
    "20260101-000000-ABCDEF01",
    " 20260101-000000-abcdef01",
    "20260101-000000-abcdef01 ",
    "20260101-000000-abcdef01\n",
    "20260101-000000-abcdef01.json",
    "%2e%2e%2fdecoy",
    "..\\..\\decoy",
    "２０２６０１０１-０００００００-abcdef01",
    "20260101-000000-abcdef01\u202e",
    "~/decoy",
    "$HOME/decoy",
    "decoy/*",
    "20260101-000000-abcdef0",
    "20260101-000000-abcdef012",
    "CON",
    "file:///tmp/decoy",
    "20260101-000000-abcdef01/",
    "./20260101-000000-abcdef01",
  ];

  it("session/load and session/prompt refuse every trick with invalid params; no path is built from one", async () => {
    const cwd = tempDir("ids");
    const trace = join(tempDir("trace"), "strace.txt");
    agent = spawnRaw({
      cwd,
      args: ["--config", configFile(cwd)],
      env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-ids", MM_MODEL: "fake-model" },
      ...(hasStrace ? { wrap: ["strace", "-f", "-qq", "--seccomp-bpf", "-e", "trace=%file", "-o", trace] } : {}),
    });
    const real = await openSession(agent, cwd);
    await agent.request("session/prompt", promptText(real, "make a real file"));
    const realDoc = readFileSync(join(cwd, ".mm/sessions", `${real}.json`), "utf8");
    // Decoys where a naive join of the tricks would land: valid documents, so a load would succeed.
    for (const path of [join(cwd, "decoy.json"), join(cwd, ".mm/decoy.json"), join(cwd, ".mm/sessions/decoy.json"), "/ABS/decoy.json"]) {
      mkdirSync(join(path, ".."), { recursive: true });
      writeFileSync(path, realDoc.replace(real, "decoy"));
    }
    const TRICK_TRIES = TRICKS.map((t) => t.replace("/ABS", cwd));
    for (const sessionId of TRICK_TRIES) {
      const loaded = await agent.request("session/load", { sessionId, cwd, mcpServers: [] });
      expect(loaded.error?.code, JSON.stringify(sessionId).slice(0, 60)).toBe(-32602);
      expect((loaded.error?.data as { sessionId?: unknown } | undefined)?.sessionId).toBe(sessionId);
      const prompted = await agent.request("session/prompt", promptText(sessionId, "hi"));
      expect(prompted.error?.code).toBe(-32602);
      tried += 2;
    }
    // A well-formed id that does not exist is a plain "no saved session".
    const missing = await agent.request("session/load", { sessionId: "20260101-000000-abcdef01", cwd, mcpServers: [] });
    expect(missing.error?.code).toBe(-32602);
    expect(agent.notifications("session/update").filter((m) => (m.params as { sessionId: string }).sessionId !== real)).toEqual([]);
    // Still serving.
    expect((await agent.request("session/prompt", promptText(real, "still fine"))).result).toEqual({ stopReason: "end_turn" });
    agent.child.stdin.end();
    await agent.exited;
    expect(hasStackTrace(agent.stderr())).toBe(false);
    expect(agent.problems).toEqual([]);

    if (hasStrace) {
      const paths = [...readFileSync(trace, "utf8").matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
      const touched = paths.filter(
        (p) => p.includes("decoy") || p.includes("ABCDEF") || p.includes("xxxxxxxxxx") || p.includes("%2e") || p.includes("２０２６"),
      );
      expect(touched).toEqual([]);
      const inSessions = paths.filter((p) => p.includes(".mm/sessions/")).map((p) => p.slice(p.indexOf(".mm/sessions/") + 13));
      // Session files, their temp files, and the .gitignore mm writes in a sessions dir it makes.
      const strange = inSessions.filter((name) => name !== ".gitignore" && !/^\.?\d{8}-\d{6}-[0-9a-f]{8}\.(json|journal|lock)(\.[0-9a-f]+\.tmp)?$/.test(name));
      expect(strange).toEqual([]);
      expect(inSessions.length).toBeGreaterThan(0);
    }
  }, 30_000);
});

describe("links planted in the sessions dir", () => {
  const setup = async () => {
    const cwd = tempDir("links");
    const outside = tempDir("outside");
    agent = spawnRaw({ cwd, args: ["--config", configFile(cwd)], env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-links", MM_MODEL: "fake-model" } });
    const sessionId = await openSession(agent, cwd);
    const file = join(cwd, ".mm/sessions", `${sessionId}.json`);
    expect(existsSync(file)).toBe(true);
    return { cwd, outside, sessionId, file, a: agent };
  };

  it("a symlink or a hard link in place of the session file: the next save replaces the link, the target is untouched", async () => {
    const { outside, sessionId, file, a } = await setup();
    for (const link of ["symlink", "hardlink"] as const) {
      const target = join(outside, `precious-${link}.txt`);
      writeFileSync(target, "precious\n");
      rmSync(file);
      if (link === "symlink") symlinkSync(target, file);
      else linkSync(target, file);
      expect((await a.request("session/prompt", promptText(sessionId, `after the ${link}`))).result).toEqual({ stopReason: "end_turn" });
      expect(readFileSync(target, "utf8")).toBe("precious\n");
      expect(lstatSync(file).isSymbolicLink()).toBe(false);
      expect(readFileSync(file, "utf8")).toContain(`after the ${link}`);
      tried++;
    }
  });

  it("a symlink to another session document is refused by session/load", async () => {
    const { outside, sessionId, file, a } = await setup();
    const elsewhere = join(outside, "elsewhere.json");
    renameSync(file, elsewhere);
    symlinkSync(elsewhere, file);
    const loaded = await a.request("session/load", { sessionId, cwd: join(file, "../../.."), mcpServers: [] });
    expect(loaded.error?.code).toBe(-32602);
    expect(JSON.stringify(loaded.error)).toMatch(/symlink/);
    tried++;
  });

  it("the sessions dir itself a symlink to elsewhere: nothing is written there, the turn still answers", async () => {
    const { cwd, outside, sessionId, a } = await setup();
    const dir = join(cwd, ".mm/sessions");
    rmSync(dir, { recursive: true });
    symlinkSync(outside, dir);
    expect((await a.request("session/prompt", promptText(sessionId, "where do I go?"))).result).toEqual({ stopReason: "end_turn" });
    expect(filesUnder(outside)).toEqual([]);
    await waitFor(() => /could not save: sessions dir is a symlink/.test(a.stderr()), "the log line about the refused save");
    tried++;
  });
});

describe("a hostile project", () => {
  // Was a bug: a FIFO SKILL.md hung start-up. SKILL.md is now read through nodeFileSystem (regular
  // files only, opened non-blocking), and the skill is reported and skipped.
  it("a FIFO planted as a skill's SKILL.md does not stop the agent from starting", async () => {
    const cwd = tempDir("fifo-skill");
    mkdirSync(join(cwd, ".mm/skills/evil"), { recursive: true });
    execFileSync("mkfifo", [join(cwd, ".mm/skills/evil/SKILL.md")]);
    agent = spawnRaw({ cwd, env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-fifo" } });
    const answer = await Promise.race([agent.request("initialize", { protocolVersion: 1 }), sleep(2000).then(() => undefined)]);
    expect(answer?.result).toBeDefined();
  });
});

describe("hostile files in the project", () => {
  it("AGENTS.md as a FIFO or a link to /dev/ptmx: session/new still answers at once", async () => {
    for (const kind of ["fifo", "ptmx"] as const) {
      const cwd = tempDir(`agents-${kind}`);
      if (kind === "fifo") execFileSync("mkfifo", [join(cwd, "AGENTS.md")]);
      else symlinkSync("/dev/ptmx", join(cwd, "AGENTS.md"));
      agent = spawnRaw({ cwd, env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-agents" } });
      await agent.request("initialize", { protocolVersion: 1 });
      const answer = await Promise.race([agent.request("session/new", { cwd, mcpServers: [] }), sleep(3000).then(() => undefined)]);
      expect(answer?.result, kind).toMatchObject({ sessionId: expect.stringMatching(SESSION_ID) });
      agent.child.kill("SIGKILL");
      tried++;
    }
  });

  it("corrupt, hostile or special session files: session/load refuses them with invalid params, nothing crashes", async () => {
    const cwd = tempDir("corrupt");
    agent = spawnRaw({ cwd, args: ["--config", configFile(cwd)], env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-corrupt", MM_MODEL: "fake-model" } });
    const real = await openSession(agent, cwd);
    const dir = join(cwd, ".mm/sessions");
    const valid = JSON.parse(readFileSync(join(dir, `${real}.json`), "utf8")) as Record<string, unknown>;
    const docs: [string, string | ((path: string) => void)][] = [
      ["empty", ""],
      ["truncated", JSON.stringify(valid).slice(0, 40)],
      ["null", "null"],
      ["array", "[]"],
      ["wrong format", JSON.stringify({ ...valid, format: "other" })],
      ["future version", JSON.stringify({ ...valid, version: 999 })],
      ["messages not an array", JSON.stringify({ ...valid, messages: "x" })],
      ["unknown role", JSON.stringify({ ...valid, messages: [...(valid.messages as unknown[]), { role: "root", text: "x" }] })],
      ["wrong types", JSON.stringify({ ...valid, messages: [...(valid.messages as unknown[]), { role: "user", text: 5 }] })],
      ["binary", "\u0000\u0001\u00ff"],
      ["a directory", (path) => mkdirSync(path)],
      ["a FIFO", (path) => execFileSync("mkfifo", [path])],
    ];
    const ids: string[] = [];
    docs.forEach(([, content], i) => {
      const id = `20260101-000000-${(i + 1).toString(16).padStart(8, "0")}`;
      ids.push(id);
      if (typeof content === "function") content(join(dir, `${id}.json`));
      else writeFileSync(join(dir, `${id}.json`), content.replace(real, id));
    });
    for (const [i, [what]] of docs.entries()) {
      const loaded = await Promise.race([agent.request("session/load", { sessionId: ids[i], cwd, mcpServers: [] }), sleep(3000).then(() => undefined)]);
      expect(loaded?.error?.code, what).toBe(-32602);
      tried++;
    }
    expect((await agent.request("session/prompt", promptText(real, "still alive"))).result).toEqual({ stopReason: "end_turn" });
    expect(agent.problems).toEqual([]);
    expect(hasStackTrace(agent.stderr())).toBe(false);
  }, 30_000);
});

describe("hostile files in the project", () => {
  // Was a bug (the stack overflowed in JSON.stringify after the session was registered): the session
  // file's decoder now refuses tool inputs nested deeper than 64 levels as corrupt.
  it("a session file whose tool input is nested 50,000 deep: loaded or refused with invalid params", async () => {
    const cwd = tempDir("deep-session");
    agent = spawnRaw({ cwd, args: ["--config", configFile(cwd)], env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-deep", MM_MODEL: "fake-model" } });
    const real = await openSession(agent, cwd);
    const dir = join(cwd, ".mm/sessions");
    const valid = JSON.parse(readFileSync(join(dir, `${real}.json`), "utf8")) as Record<string, unknown>;
    const deepId = "20260101-000000-0000dee9";
    const calls = [{ id: "call_1", name: "bash", input: { command: "x", extra: "DEEP" } }];
    const doc = {
      ...valid,
      id: deepId,
      messages: [...(valid.messages as unknown[]), { role: "user", text: "q" }, { role: "assistant", text: "", toolCalls: calls }],
    };
    writeFileSync(join(dir, `${deepId}.json`), JSON.stringify(doc).replace('"DEEP"', "[".repeat(50_000) + "]".repeat(50_000)));
    const loaded = await agent.request("session/load", { sessionId: deepId, cwd, mcpServers: [] });
    expect(loaded.result !== undefined || loaded.error?.code === -32602, JSON.stringify(loaded).slice(0, 300)).toBe(true);
  });
});

describe("the API key never leaks", () => {
  const KEY = `sk-proj-${"Zq9".repeat(4)}SECRETKEY${Date.now().toString(36)}`;
  const KEY_CORE = KEY.slice(12);

  for (const variant of ["OPENAI_API_KEY", "model.apiKeyEnv"] as const) {
    it(`not on stderr, stdout or in session files, whatever the model, the server or a command does (${variant})`, async () => {
      const cwd = tempDir("key");
      const keyVar = variant === "OPENAI_API_KEY" ? "OPENAI_API_KEY" : "MY_MM_KEY";
      const config = configFile(cwd, variant === "OPENAI_API_KEY" ? {} : { model: { apiKeyEnv: keyVar } });
      writeFileSync(join(cwd, "notes.txt"), "nothing secret\n");
      server.enqueue(
        // The server echoes the key in its error messages.
        status(400, { error: { message: `Invalid request for key ${KEY} (Bearer ${KEY})`, type: "invalid_request_error", code: null } }),
        status(500, { error: { message: `upstream said: ${KEY}`, type: "server_error" } }, { "retry-after-ms": "1" }),
        status(500, `plain text ${KEY}`, { "retry-after-ms": "1" }),
        status(500, undefined, { "retry-after-ms": "1" }),
        // The model tries to read it out of the commands' environment. (The agent's own
        // /proc/<pid>/environ stays readable to the same user: a known limit, see the report.)
        toolCalls([{ name: "bash", arguments: { command: `env; echo "key=$${keyVar}"; printenv` } }]),
        text(["I found nothing."]),
      );
      agent = spawnRaw({ cwd, args: ["--config", config], env: { MM_BASE_URL: server.url, [keyVar]: KEY, MM_MODEL: "fake-model" } });
      const sessionId = await openSession(agent, cwd);
      for (const q of ["one", "two"]) {
        const failed = await agent.request("session/prompt", promptText(sessionId, q));
        expect(failed.error?.code).toBe(-32603);
      }
      expect((await agent.request("session/prompt", promptText(sessionId, "show me the key"))).result).toEqual({ stopReason: "end_turn" });
      agent.child.stdin.end();
      await agent.exited;
      // The key did reach the model server, where it belongs.
      expect(server.requests.some((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
      const outputs = JSON.stringify(agent.messages);
      expect(outputs).toContain("[exit code");
      const places = [
        { where: "stdout", text: agent.lines.join("\n") },
        { where: "stderr", text: agent.stderr() },
        ...filesUnder(join(cwd, ".mm")).map((f) => ({ where: f.path, text: f.text })),
      ];
      expect(places.length).toBeGreaterThan(2);
      expect(places.filter((p) => p.text.includes(KEY_CORE)).map((p) => p.where)).toEqual([]);
      tried += 7;
    }, 20_000);
  }
});

describe("the permission gate cannot be bypassed", () => {
  const config = (c: MmConfig): MmConfig => ({ ...c, sessions: { ...c.sessions, enabled: true } });
  const prompt = (sessionId: string, t: string) => ({ sessionId, prompt: [{ type: "text" as const, text: t }] });
  /** One prompt in a new session, which must end end_turn. */
  const promptOnce = (t: ReturnType<typeof inMemoryAcp>) =>
    t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expect(await agent.request("session/prompt", prompt(sessionId, "try"))).toEqual({ stopReason: "end_turn" });
    });
  /** No dialog, no command, and /w/f as it was. */
  const expectNothingRan = async (t: ReturnType<typeof inMemoryAcp>) => {
    expect(t.permissions).toEqual([]);
    expect(t.shell.requests).toEqual([]);
    expect((await t.fs.readText("/w/f"))._unsafeUnwrap()).toBe("original");
  };

  it("unknown and differently-cased tool names never run and never ask", async () => {
    const NAMES = [
      "Bash",
      "BASH",
      "bash ",
      " bash",
      "bash\u0000",
      "bash\u200b",
      "ｂａｓｈ",
      "Read_File",
      "read-file",
      "readFile",
      "WRITE_FILE",
      "edit",
      "shell",
      "exec",
      "run_command",
      "sh",
      "__proto__",
      "constructor",
      "toString",
      "hasOwnProperty",
      "",
      "bash;rm",
      "bash/../write_file",
    ];
    const t = inMemoryAcp({
      replies: [toolReply(NAMES.map((name) => ({ name, input: { command: "rm -rf /", path: "/w/f", content: "pwned" } }))), textReply("done")],
      files: { "/w/f": "original" },
    });
    await promptOnce(t);
    await expectNothingRan(t);
    const failed = t.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
    expect(failed).toHaveLength(NAMES.length);
    tried += NAMES.length;
  });

  it("invalid inputs never reach the dialog or the tool", async () => {
    const BAD: { name: string; input: unknown }[] = [
      { name: "bash", input: { command: ["rm", "-rf", "/"] } },
      { name: "bash", input: { command: { toString: "rm" } } },
      { name: "bash", input: { command: null } },
      { name: "bash", input: {} },
      { name: "bash", input: null },
      { name: "bash", input: "rm -rf /" },
      { name: "bash", input: [] },
      { name: "bash", input: { command: 5 } },
      { name: "bash", input: { cmd: "rm" } },
      { name: "bash", input: { command: "echo", timeout_seconds: -1 } },
      { name: "bash", input: { command: "echo", timeout_seconds: "9" } },
      { name: "write_file", input: { path: 5, content: "x" } },
      { name: "write_file", input: { path: "/w/f" } },
      { name: "write_file", input: { path: "/w/f", content: ["a"] } },
      { name: "edit_file", input: { path: "/w/f", old_text: "original" } },
      { name: "edit_file", input: { path: "/w/f", old_text: 1, new_text: "x" } },
      { name: "edit_file", input: { path: "/w/f", old_text: "original", new_text: "x", replace_all: "yes" } },
      { name: "read_file", input: { path: null } },
      { name: "read_file", input: { path: "/w/f", offset: -5 } },
      { name: "read_file", input: '{"path":"/w/f"}' },
    ];
    const t = inMemoryAcp({ replies: [toolReply(BAD), textReply("done")], files: { "/w/f": "original" } });
    await promptOnce(t);
    await expectNothingRan(t);
    const results = t.model.requests[1]!.messages.filter((m) => m.role === "tool") as { output: string }[];
    expect(results).toHaveLength(BAD.length);
    for (const r of results) expect(r.output).toMatch(/^\[invalid input for /);
    tried += BAD.length;
  });

  it("unknown option ids, a cancelled dialog and a failing client all count as rejection", async () => {
    const ANSWERS = ["ALLOW", "allow_all", "", "allow ", "Allow", "allow_once", "cancelled", "throw"];
    let i = 0;
    const t = inMemoryAcp({
      replies: [toolReply(ANSWERS.map((_, n) => ({ name: "bash", input: { command: `echo ${n}` } }))), textReply("done")],
      permission: () => {
        const answer = ANSWERS[i++]!;
        if (answer === "throw") throw new Error("the editor failed");
        return answer as PermissionAnswer;
      },
    });
    await promptOnce(t);
    expect(t.permissions).toHaveLength(ANSWERS.length);
    expect(t.shell.requests).toEqual([]);
    const results = t.model.requests[1]!.messages.filter((m) => m.role === "tool") as { output: string }[];
    expect(results.map((r) => r.output)).toEqual(ANSWERS.map(() => "[command rejected by the user]"));
    tried += ANSWERS.length;
  });

  it("allow-always covers one tool name in one session: not other tools, not other sessions, not a reloaded session", async () => {
    const store = inMemorySessionStore();
    const asked: string[] = [];
    const answers = (request: acp.RequestPermissionRequest): PermissionAnswer => {
      asked.push(`${request.sessionId.slice(-4)} ${request.toolCall.title ?? ""}`);
      return request.toolCall.title === "bash: echo 1" ? "allow_always" : "allow";
    };
    const t = inMemoryAcp({
      config,
      store,
      permission: answers,
      files: { "/w/f": "x" },
      replies: [
        toolReply([
          { name: "bash", input: { command: "echo 1" } },
          { name: "bash", input: { command: "echo 2" } },
          { name: "Bash", input: { command: "echo 3" } },
        ]),
        toolReply([
          { name: "write_file", input: { path: "/w/g", content: "y" } },
          { name: "read_file", input: { path: "/w/f" } },
          { name: "edit_file", input: { path: "/w/f", old_text: "x", new_text: "z" } },
        ]),
        textReply("A done"),
        toolReply([{ name: "bash", input: { command: "echo in B" } }]),
        textReply("B done"),
        toolReply([{ name: "bash", input: { command: "echo after /new" } }]),
        textReply("A still trusted"),
        toolReply([{ name: "bash", input: { command: "echo reloaded" } }]),
        textReply("reloaded asks"),
      ],
    });
    await t.run(async (agent) => {
      const a = (await agent.request("session/new", { cwd: "/w", mcpServers: [] })).sessionId;
      const b = (await agent.request("session/new", { cwd: "/w", mcpServers: [] })).sessionId;
      await agent.request("session/prompt", prompt(a, "A"));
      await agent.request("session/prompt", prompt(b, "B"));
      await agent.request("session/prompt", prompt(a, "/new"));
      await agent.request("session/prompt", prompt(a, "A again"));
      await agent.request("session/load", { sessionId: a, cwd: "/w", mcpServers: [] });
      await agent.request("session/prompt", prompt(a, "after load"));
      const tail = (id: string) => id.slice(-4);
      expect(asked).toEqual([
        `${tail(a)} bash: echo 1`,
        `${tail(a)} write_file: /w/g`,
        `${tail(a)} read_file: /w/f`,
        `${tail(a)} edit_file: /w/f`,
        `${tail(b)} bash: echo in B`,
        `${tail(a)} bash: echo reloaded`,
      ]);
    });
    expect(t.shell.requests.map((r) => r.command)).toEqual(["echo 1", "echo 2", "echo in B", "echo after /new", "echo reloaded"]);
    tried += 9;
  });

  it("read_skill (never gated) cannot be turned into a file read outside the catalogue", async () => {
    const t = inMemoryAcp({
      skills: [{ name: "greetings", description: "Greet", instructions: "Say hi" }],
      replies: [
        toolReply(
          ["../../etc/passwd", "/etc/passwd", "greetings/../../x", "GREETINGS", "greetings\u0000"].map((name) => ({ name: "read_skill", input: { name } })),
        ),
        textReply("done"),
      ],
    });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expect(await agent.request("session/prompt", prompt(sessionId, "skills"))).toEqual({ stopReason: "end_turn" });
    });
    const results = t.model.requests[1]!.messages.filter((m) => m.role === "tool") as { status: string; output: string }[];
    expect(results.map((r) => r.status)).toEqual(["failed", "failed", "failed", "failed", "failed"]);
    expect(JSON.stringify(results)).not.toContain("root:");
    tried += 5;
  });
});
