import { spawn } from "node:child_process";
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistantMessage, describeStoreError, summaryMessage, systemMessage, userMessage, type History, type StoredSession } from "@mm/core";
import { jsonSessionStore } from "./json-session-store.js";
import { crashHistory, crashVersionOf } from "../../test-fixtures/crash-history.js";

const ID = "20260916-101530-4f2a9c1e";
const posix = process.platform !== "win32";

let cwd = "";
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "mm-sessions-"));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const everyKindOfMessage: History = [
  systemMessage("You are Bob."),
  summaryMessage("Earlier: we fixed the build."),
  userMessage("rename foo to bar in a.ts"),
  assistantMessage("Let me look.", [
    { id: "call_7", name: "read_file", input: { path: "a.ts" } },
    { id: "call_8", name: "edit_file", input: { path: "a.ts", old_text: "foo", new_text: "bar" } },
  ]),
  { role: "tool", callId: "call_7", toolName: "read_file", status: "completed", output: "const foo = 1;\n" },
  {
    role: "tool",
    callId: "call_8",
    toolName: "edit_file",
    status: "completed",
    output: "edited a.ts",
    diffs: [
      { path: "/p/a.ts", oldText: "const foo = 1;\n", newText: "const bar = 1;\n" },
      { path: "/p/new.ts", oldText: null, newText: "x" },
      { path: "/p/logo.png", oldText: null, newText: null, note: "binary" },
    ],
  },
  { role: "tool", callId: "call_9", toolName: "bash", status: "failed", output: "[command rejected by the user]" },
  assistantMessage("Done: ✓ «bar»\n\ttabs and \u0000 NULs survive."),
];

const aSession = (overrides: Partial<StoredSession> = {}): StoredSession => ({
  id: ID,
  cwd,
  createdAt: Date.UTC(2026, 8, 16, 10, 15, 30, 123),
  updatedAt: Date.UTC(2026, 8, 16, 10, 20, 0, 456),
  history: everyKindOfMessage,
  ...overrides,
});

const store = () => jsonSessionStore({ dir: ".mm/sessions" });
const sessionsDir = () => join(cwd, ".mm", "sessions");
const fileOf = (id = ID) => join(sessionsDir(), `${id}.json`);

const writeDocument = async (document: unknown, id = ID) => {
  await mkdir(sessionsDir(), { recursive: true });
  await writeFile(fileOf(id), typeof document === "string" ? document : JSON.stringify(document));
};

const documentOf = (session: StoredSession = aSession()) => ({
  format: "mm-session",
  version: 1,
  id: session.id,
  cwd: session.cwd,
  createdAt: new Date(session.createdAt).toISOString(),
  updatedAt: new Date(session.updatedAt).toISOString(),
  messages: session.history,
});

describe("jsonSessionStore: the document", () => {
  it("loads what it saved, every kind of message verbatim", async () => {
    expect((await store().save(aSession())).isOk()).toBe(true);
    expect((await store().load(cwd, ID))._unsafeUnwrap()).toEqual(aSession());
  });

  it("writes the versioned document of docs/session-file.md", async () => {
    await store().save(aSession());
    expect(JSON.parse(await readFile(fileOf(), "utf8"))).toEqual({
      format: "mm-session",
      version: 1,
      id: ID,
      cwd,
      createdAt: "2026-09-16T10:15:30.123Z",
      updatedAt: "2026-09-16T10:20:00.456Z",
      generation: expect.stringMatching(/^[0-9a-f]{12}$/),
      messages: everyKindOfMessage,
    });
  });

  it("uses an absolute sessions dir as is", async () => {
    const elsewhere = join(cwd, "elsewhere");
    const absolute = jsonSessionStore({ dir: elsewhere });
    await absolute.save(aSession({ cwd: "/somewhere/else" }));
    expect((await readdir(elsewhere)).filter((name) => name.endsWith(".json"))).toEqual([`${ID}.json`]);
    expect((await absolute.load("/another/cwd", ID))._unsafeUnwrap().cwd).toBe("/somewhere/else");
  });

  it("overwrites the previous version and leaves no temp file behind", async () => {
    await store().save(aSession());
    await store().save(aSession({ history: [systemMessage("v2")] }));
    expect((await store().load(cwd, ID))._unsafeUnwrap().history).toEqual([systemMessage("v2")]);
    expect((await readdir(sessionsDir())).sort()).toEqual([".gitignore", `${ID}.json`, `${ID}.lock`]);
  });

  it("keeps a tool call whose input is absent", async () => {
    const history: History = [systemMessage("s"), assistantMessage("", [{ id: "call_1", name: "bash", input: undefined }])];
    await store().save(aSession({ history }));
    const loaded = (await store().load(cwd, ID))._unsafeUnwrap();
    expect(loaded.history[1]).toEqual({ role: "assistant", text: "", toolCalls: [{ id: "call_1", name: "bash" }] });
  });

  it("refuses to save a session it could not load back, writing nothing", async () => {
    const circular: { self?: unknown } = {};
    circular.self = circular;
    const history: History = [systemMessage("s"), assistantMessage("", [{ id: "call_1", name: "bash", input: circular }])];
    expect((await store().save(aSession({ history })))._unsafeUnwrapErr().kind).toBe("io");
    expect((await store().save(aSession({ createdAt: Number.NaN })))._unsafeUnwrapErr()).toMatchObject({ kind: "io", id: ID });
    expect(await readdir(cwd)).toEqual([]);
  });
});

describe.runIf(posix)("jsonSessionStore: permissions", () => {
  it("writes the file 0600 in a 0700 directory", async () => {
    await store().save(aSession());
    expect((await stat(fileOf())).mode & 0o777).toBe(0o600);
    expect((await stat(sessionsDir())).mode & 0o777).toBe(0o700);
  });

  it("leaves the mode of an existing sessions dir and of its parents alone", async () => {
    await mkdir(sessionsDir(), { recursive: true, mode: 0o755 });
    await chmod(sessionsDir(), 0o755);
    await store().save(aSession());
    expect((await stat(sessionsDir())).mode & 0o777).toBe(0o755);
    expect((await stat(cwd)).mode & 0o777).toBe(0o700);
    expect((await stat(fileOf())).mode & 0o777).toBe(0o600);
  });
});

describe("jsonSessionStore: ids", () => {
  const badIds = ["../x", `../${ID}`, "/etc/passwd", `${ID}\u0000`, "a".repeat(5000), "", `${ID}/../${ID}`, "20260916-101530-4F2A9C1E"];

  it.each(badIds.map((id) => [id.length > 40 ? `${id.slice(0, 20)}…` : JSON.stringify(id), id]))(
    "refuses %s as invalid-id before touching the disk",
    async (_label, id) => {
      expect((await store().save(aSession({ id })))._unsafeUnwrapErr()).toEqual({ kind: "invalid-id", id });
      expect((await store().load(cwd, id))._unsafeUnwrapErr()).toEqual({ kind: "invalid-id", id });
      expect((await store().load(join(cwd, "no", "such", "cwd"), id))._unsafeUnwrapErr()).toEqual({ kind: "invalid-id", id });
      expect(await readdir(cwd)).toEqual([]);
    },
  );

  it("fails not-found when neither the sessions dir nor the file exists", async () => {
    expect((await store().load(cwd, ID))._unsafeUnwrapErr()).toEqual({ kind: "not-found", id: ID });
    await mkdir(sessionsDir(), { recursive: true });
    expect((await store().load(cwd, ID))._unsafeUnwrapErr()).toEqual({ kind: "not-found", id: ID });
    expect((await store().load(join(cwd, "missing"), ID))._unsafeUnwrapErr()).toEqual({ kind: "not-found", id: ID });
  });
});

describe("jsonSessionStore: files it does not understand", () => {
  const valid = () => documentOf();
  const withMessages = (...messages: unknown[]) => ({ ...valid(), messages });
  const cases: readonly (readonly [string, unknown, unknown])[] = [
    ["not JSON", '{"format": "mm-session",', expect.stringMatching(/^not JSON \(.+\)$/)],
    ["an array", "[]", "expected a JSON object, got an array"],
    ["another format", { ...valid(), format: "other" }, 'format: expected "mm-session", got "other"'],
    ["no format", { ...valid(), format: undefined }, 'format: expected "mm-session", got nothing'],
    ["a string version", { ...valid(), version: "1" }, 'version: expected 1, got "1"'],
    ["version 0", { ...valid(), version: 0 }, "version: expected 1, got 0"],
    ["another id", { ...valid(), id: "20260916-101530-00000000" }, `id: expected "${ID}" (the file's name), got "20260916-101530-00000000"`],
    ["a numeric cwd", { ...valid(), cwd: 3 }, "cwd: expected a string, got 3"],
    ["a bad date", { ...valid(), createdAt: "yesterday" }, 'createdAt: expected an ISO 8601 date, got "yesterday"'],
    ["a numeric date", { ...valid(), updatedAt: 5 }, "updatedAt: expected an ISO 8601 date, got 5"],
    ["no messages", { ...valid(), messages: undefined }, "messages: expected an array, got nothing"],
    ["empty messages", withMessages(), "messages: expected at least the system prompt, got an empty array"],
    ["a user message first", withMessages(userMessage("hi")), 'messages[0].role: expected system (the system prompt comes first), got "user"'],
    [
      "a second system prompt",
      withMessages(systemMessage("a"), userMessage("b"), systemMessage("c")),
      'messages[2].role: expected user/assistant/tool, got "system"',
    ],
    ["a message that is not an object", withMessages(systemMessage("a"), "hi"), 'messages[1]: expected an object, got "hi"'],
    ["a numeric text", withMessages(systemMessage("a"), { role: "user", text: 1 }), "messages[1].text: expected a string, got 1"],
    ["a false summary mark", withMessages(systemMessage("a"), { role: "user", text: "s", summary: false }), "messages[1].summary: expected true, got false"],
    ["no toolCalls", withMessages(systemMessage("a"), { role: "assistant", text: "" }), "messages[1].toolCalls: expected an array, got nothing"],
    [
      "a call without id",
      withMessages(systemMessage("a"), { role: "assistant", text: "", toolCalls: [{ name: "bash", input: {} }] }),
      "messages[1].toolCalls[0].id: expected a string, got nothing",
    ],
    [
      "an unknown status",
      withMessages(systemMessage("a"), { role: "tool", callId: "call_1", toolName: "bash", status: "done", output: "" }),
      'messages[1].status: expected completed/failed, got "done"',
    ],
    [
      "no output",
      withMessages(systemMessage("a"), { role: "tool", callId: "call_1", toolName: "bash", status: "failed" }),
      "messages[1].output: expected a string, got nothing",
    ],
    [
      "a bad diff",
      withMessages(systemMessage("a"), {
        role: "tool",
        callId: "c",
        toolName: "edit_file",
        status: "completed",
        output: "",
        diffs: [{ path: "/a", oldText: 1, newText: null }],
      }),
      "messages[1].diffs[0].oldText: expected a string or null, got 1",
    ],
  ];

  it.each(cases)("refuses %s as corrupt and leaves the file as it was", async (_label, document, message) => {
    await writeDocument(document);
    const before = await readFile(fileOf());
    expect((await store().load(cwd, ID))._unsafeUnwrapErr()).toEqual({ kind: "corrupt", id: ID, message });
    expect(await readFile(fileOf())).toEqual(before);
  });

  it("refuses a newer version as unsupported-version, whatever else the file holds", async () => {
    await writeDocument({ format: "mm-session", version: 2, id: ID, conversation: { turns: [] } });
    const before = await readFile(fileOf());
    const error = (await store().load(cwd, ID))._unsafeUnwrapErr();
    expect(error).toEqual({ kind: "unsupported-version", id: ID, version: 2 });
    expect(describeStoreError(error)).toBe("session file has version 2, newer than this mm understands");
    expect(await readFile(fileOf())).toEqual(before);
  });

  it("ignores unknown fields of a message and of the document", async () => {
    await writeDocument({ ...documentOf(), extra: 1, messages: [{ role: "system", text: "s", colour: "blue" }] });
    expect((await store().load(cwd, ID))._unsafeUnwrap().history).toEqual([systemMessage("s")]);
  });

  it("fails io when the file is a directory", async () => {
    await mkdir(fileOf(), { recursive: true });
    expect((await store().load(cwd, ID))._unsafeUnwrapErr().kind).toBe("io");
    expect((await store().save(aSession()))._unsafeUnwrapErr().kind).toBe("io");
  });
});

describe.runIf(posix)("jsonSessionStore: symlinks", () => {
  it("replaces a symlink planted at the session's path instead of writing through it", async () => {
    const outside = join(cwd, "outside.txt");
    await writeFile(outside, "precious\n");
    await mkdir(sessionsDir(), { recursive: true });
    await symlink(outside, fileOf());
    expect((await store().save(aSession())).isOk()).toBe(true);
    expect(await readFile(outside, "utf8")).toBe("precious\n");
    const info = await lstat(fileOf());
    expect(info.isFile()).toBe(true);
    expect(info.mode & 0o777).toBe(0o600);
    expect((await store().load(cwd, ID))._unsafeUnwrap()).toEqual(aSession());
  });

  it("refuses to load a session file that is a symlink", async () => {
    const outside = join(cwd, "outside.json");
    await writeFile(outside, JSON.stringify(documentOf()));
    await mkdir(sessionsDir(), { recursive: true });
    await symlink(outside, fileOf());
    const error = (await store().load(cwd, ID))._unsafeUnwrapErr();
    expect(error).toEqual({ kind: "io", id: ID, message: `session file is a symlink: ${fileOf()}` });
  });

  it("refuses a sessions dir that is a symlink, for saving and loading", async () => {
    const real = join(cwd, "real-dir");
    await mkdir(real);
    await mkdir(join(cwd, ".mm"));
    await symlink(real, sessionsDir());
    const expected = { kind: "io", id: ID, message: `sessions dir is a symlink: ${sessionsDir()}` };
    expect((await store().save(aSession()))._unsafeUnwrapErr()).toEqual(expected);
    expect((await store().load(cwd, ID))._unsafeUnwrapErr()).toEqual(expected);
    expect(await readdir(real)).toEqual([]);
  });
});

describe("jsonSessionStore: a symlinked .mm (issue 27)", () => {
  // On the old code only the sessions dir itself was checked: `<cwd>/.mm -> /elsewhere` sent every
  // session file (the whole conversation) to /elsewhere/sessions.
  it("refuses a sessions dir under a symlink in the cwd, for saving and loading, and writes nothing there", async () => {
    const elsewhere = join(cwd, "..", `elsewhere-${Date.now()}`);
    await mkdir(elsewhere, { recursive: true });
    await symlink(elsewhere, join(cwd, ".mm"));
    const expected = { kind: "io", id: ID, message: `sessions dir is under a symlink: ${join(cwd, ".mm")}` };
    expect((await store().save(aSession()))._unsafeUnwrapErr()).toEqual(expected);
    expect((await store().load(cwd, ID))._unsafeUnwrapErr()).toEqual(expected);
    expect(await readdir(elsewhere)).toEqual([]);
  });
});

describe("jsonSessionStore: concurrency", () => {
  it("serialises saves of one session: the last one called is the one kept", async () => {
    const s = store();
    const saves = Array.from({ length: 20 }, (_, i) => s.save(aSession({ history: [systemMessage(`v${i}`)], updatedAt: i })));
    const loaded = s.load(cwd, ID);
    for (const saved of await Promise.all(saves)) expect(saved.isOk()).toBe(true);
    expect((await loaded)._unsafeUnwrap().history).toEqual([systemMessage("v19")]);
    expect((await readdir(sessionsDir())).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("saves different sessions side by side", async () => {
    const ids = ["20260916-101530-00000001", "20260916-101530-00000002", "20260916-101530-00000003"];
    const s = store();
    await Promise.all(ids.map((id) => s.save(aSession({ id }))));
    for (const id of ids) expect((await s.load(cwd, id))._unsafeUnwrap().id).toBe(id);
  });
});

const largeHistory = (count: number): History => {
  const messages: History[number][] = [];
  for (let i = 1; i < count; i++) {
    const body = `message ${i} ${"lorem ipsum dolor sit amet ".repeat(76)}`;
    if (i % 3 === 1) messages.push(userMessage(body));
    else if (i % 3 === 2) messages.push(assistantMessage(body, [{ id: `call_${i}`, name: "bash", input: { command: `echo ${i}` } }]));
    else messages.push({ role: "tool", callId: `call_${i - 1}`, toolName: "bash", status: "completed", output: body });
  }
  return [systemMessage("You are Bob."), ...messages];
};

describe("jsonSessionStore: size", () => {
  it("saves and loads a 5,000-message, ~10 MB history", async () => {
    const session = aSession({ history: largeHistory(5000) });
    expect((await store().save(session)).isOk()).toBe(true);
    expect((await stat(fileOf())).size).toBeGreaterThan(9_000_000);
    expect((await store().load(cwd, ID))._unsafeUnwrap()).toEqual(session);
  });
});

const repoRoot = fileURLToPath(new URL("../../../..", import.meta.url));
const child = fileURLToPath(new URL("../../test-fixtures/save-forever.ts", import.meta.url));
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Starts the saving child and kills it with SIGKILL `delayMs` after its first completed save. */
const killMidSave = (round: number, delayMs: number): Promise<number> =>
  new Promise((done, fail) => {
    const proc = spawn(process.execPath, ["--conditions=mm-source", "--import", "tsx", child, cwd, ID, String(round)], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let saves = 0;
    let stderr = "";
    proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    proc.stdout.on("data", (chunk: Buffer) => {
      if (saves === 0) void sleep(delayMs).then(() => proc.kill("SIGKILL"));
      saves += chunk
        .toString()
        .split("\n")
        .filter((line) => line.startsWith("saved")).length;
    });
    proc.on("error", fail);
    proc.on("exit", (_code, signal) => (signal === "SIGKILL" ? done(saves) : fail(new Error(`child ended without being killed: ${stderr}`))));
  });

describe.runIf(posix)("jsonSessionStore: crash safety", () => {
  it("leaves a whole version of the file whenever the writing process is killed", { timeout: 120_000 }, async () => {
    for (let round = 0; round < 10; round++) {
      const saves = await killMidSave(round, 50 + Math.floor(Math.random() * 250));
      expect(saves).toBeGreaterThan(0);
      const text = await readFile(fileOf(), "utf8");
      expect(() => JSON.parse(text)).not.toThrow();
      const reader = store();
      const loaded = (await reader.load(cwd, ID))._unsafeUnwrap();
      await reader.release(cwd, ID);
      const version = crashVersionOf(loaded.history[0].text);
      expect(version).toBeDefined();
      if (version === undefined) return;
      expect(version.round).toBeLessThanOrEqual(round);
      expect(loaded.history).toEqual(crashHistory(version.round, version.k));
    }
  });
});
