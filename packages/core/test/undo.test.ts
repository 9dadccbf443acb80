/** `/undo` on in-memory adapters: files back whatever tool changed them, history back, conflicts, limits. */
import { ResultAsync, err, ok, type Result } from "neverthrow";
import { describe, expect, it } from "vitest";
import { createAgent } from "../src/agent/create-agent.js";
import { availableCommands } from "../src/commands/slash-command.js";
import type { FsError } from "../src/ports/file-system.js";
import { object } from "../src/schema/object.js";
import { string } from "../src/schema/schema.js";
import { builtinTools } from "../src/tools/builtin-tools.js";
import { completed, defineTool, type Tool } from "../src/tools/tool.js";
import type { UndoLimits } from "../src/ports/undo-store.js";
import {
  counterHex,
  errorReply,
  inMemoryChangeTracker,
  inMemoryFileSystem,
  inMemorySessionStore,
  inMemorySkillCatalogue,
  inMemoryUndoStore,
  manualClock,
  scriptedGate,
  scriptedModel,
  scriptedShell,
  textReply,
  toolReply,
  type ScriptedReply,
  type InMemoryFileSystem,
  type ShellScript,
} from "../src/testing/index.js";
import type { TurnEvent } from "../src/turn/events.js";
import { conflictLine, KEPT_REASON, NOT_UNDONE, planUndo, undoneLine } from "../src/undo/plan-undo.js";

const say = (t: string) => [{ type: "text" as const, text: t }];

/** A step that writes "new" into a.txt and b.txt. */
const writeBothReply = () =>
  toolReply([
    { name: "write_file", input: { path: "a.txt", content: "new" } },
    { name: "write_file", input: { path: "b.txt", content: "new" } },
  ]);

/** A step that writes one file with write_file. */
const writeReply = (path: string, content: string) => toolReply([{ name: "write_file", input: { path, content } }]);

type SetupOptions = {
  replies: ScriptedReply[];
  files: Record<string, string>;
  shell?: ShellScript;
  undo?: boolean;
  /** false: sessions are not kept (no session store), as with `sessions.enabled` off. */
  persist?: boolean;
  limits?: UndoLimits;
  /** When the history is compacted during a turn. */
  compact?: { readonly threshold: number; readonly keepLastTurns: number };
  /** Where the session's file system lands a path (the sandbox's boundary, links); the path itself when absent. */
  realPath?: (path: string) => Result<string, FsError>;
  /** Tools beside the built-in ones (an MCP server's, say), given the files. */
  tools?: (fs: InMemoryFileSystem) => Tool[];
};

const setup = (options: SetupOptions) => {
  const files = inMemoryFileSystem(options.files);
  const realPath = options.realPath;
  const fs = realPath === undefined ? files : { ...files, realPath: (path: string) => new ResultAsync(Promise.resolve(realPath(path))) };
  const store = inMemorySessionStore();
  const undo = inMemoryUndoStore(files);
  const events: TurnEvent[] = [];
  const agent = createAgent(
    {
      model: scriptedModel(...options.replies),
      fs,
      shell: scriptedShell(options.shell),
      gate: scriptedGate("allow"),
      skills: inMemorySkillCatalogue([]),
      clock: manualClock(),
      random: counterHex(),
      ...(options.persist === false ? {} : { store }),
      changes: inMemoryChangeTracker(files),
      ...(options.tools !== undefined ? { tools: [...builtinTools, ...options.tools(files)] } : {}),
      ...(options.undo === false ? {} : { undo }),
    },
    {
      os: "linux x64",
      ...(options.limits !== undefined ? { undoLimits: options.limits } : {}),
      ...(options.compact !== undefined ? { compactThreshold: options.compact.threshold, keepLastTurns: options.compact.keepLastTurns } : {}),
    },
  );
  const notices = () => events.flatMap((e) => (e.type === "notice" ? [e.text] : []));
  const prompt = async (id: string, text: string) => (await agent.prompt(id, say(text), (e) => events.push(e)))._unsafeUnwrap();
  return { fs: files, store, undo, agent, events, notices, prompt };
};

const BEFORE = { "/w/edit.txt": "one\ntwo\n", "/w/gone.txt": "bye", "/w/sed.txt": "alpha\n", "/w/bin.dat": "\u0000\u0001old" };

/** A turn through every tool: write_file (new), edit_file, and one command that edits, deletes and writes binary. */
const everyTool = (): ScriptedReply[] => [
  toolReply([
    { name: "write_file", input: { path: "new.txt", content: "fresh" } },
    { name: "edit_file", input: { path: "edit.txt", old_text: "two", new_text: "TWO" } },
    { name: "bash", input: { command: "sed -i s/alpha/beta/ sed.txt; rm gone.txt; printf binary > bin.dat" } },
  ]),
  textReply("done"),
];

const filesOf = (fs: { files: Map<string, string> }) => Object.fromEntries([...fs.files].sort());

describe("/undo", () => {
  it("undoes nothing, and says why, when what the last turn changed could not be kept", async () => {
    const t = setup({
      replies: [writeReply("a.txt", "turn"), textReply("done"), ...everyTool()],
      files: { ...BEFORE, "/w/a.txt": "mine" },
    });
    const s = await t.agent.startSession("/w");
    t.undo.broken.saves = "no space left on device";
    await t.prompt(s.id, "write a");
    const history = t.agent.session(s.id)!.history;
    await t.prompt(s.id, "/undo");
    expect(t.notices().at(-1)).toBe("↩ nothing undone: what the last turn changed could not be kept (no space left on device)");
    expect(t.fs.files.get("/w/a.txt")).toBe("turn");
    expect(t.agent.session(s.id)!.history).toEqual(history);
    // Once saves work again, the next turn can be undone as usual.
    t.undo.broken.saves = undefined;
    await t.prompt(s.id, "every tool");
    await t.prompt(s.id, "/undo");
    expect(t.notices().at(-1)).toMatch(/^↩ undid the last turn: /);
    expect(t.fs.files.get("/w/edit.txt")).toBe("one\ntwo\n");
  });

  it("puts back every file the last turn changed, whatever tool changed it, and takes the turn out of the history", async () => {
    let fsRef: { files: Map<string, string> } | undefined;
    const t = setup({
      replies: [textReply("hello"), ...everyTool()],
      files: BEFORE,
      shell: (request) => {
        if (request.command.startsWith("sed")) {
          fsRef!.files.set("/w/sed.txt", "beta\n");
          fsRef!.files.delete("/w/gone.txt");
          fsRef!.files.set("/w/bin.dat", "\u0000\u0002new");
        }
        return {};
      },
    });
    fsRef = t.fs;
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "hi");
    const before = filesOf(t.fs);
    await t.prompt(s.id, "change everything");
    expect(t.fs.files.get("/w/new.txt")).toBe("fresh");
    expect(t.fs.files.has("/w/gone.txt")).toBe(false);
    const historyBefore = t.agent.session(s.id)!.history;
    const result = await t.prompt(s.id, "/undo");
    expect(result).toEqual({ stopReason: "end_turn" });
    expect(filesOf(t.fs)).toEqual(before);
    const history = t.agent.session(s.id)!.history;
    expect(history.slice(1).map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(t.notices().at(-1)).toBe(
      "↩ undid the last turn: 4 file(s) restored, 1 removed, history back to 2 message(s).\n" +
        "Not undone: what the turn's commands did besides files (commits, installed packages, network calls, processes), " +
        "nor their changes to files mm does not watch (those git ignores, node_modules).",
    );
    expect(t.events.at(-1)?.type).toBe("usage");
    // The conversation before the undo is kept under a new id, as /new keeps one.
    const kept = [...t.store.saved.values()].find((v) => v.id !== s.id);
    expect(kept?.history).toEqual(historyBefore);
    expect([...t.store.saved.values()].find((v) => v.id === s.id)?.history).toEqual(history);
    expect(t.undo.logs.get(`/w|${s.id}`)).toEqual({ turns: [] });
  });

  it("goes back turn by turn, then says there is nothing left", async () => {
    const t = setup({
      replies: [writeReply("a.txt", "1"), textReply("ok"), writeReply("a.txt", "2"), textReply("ok")],
      files: { "/w/a.txt": "0" },
    });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "one");
    await t.prompt(s.id, "two");
    await t.prompt(s.id, "/undo");
    expect(t.fs.files.get("/w/a.txt")).toBe("1");
    await t.prompt(s.id, "/undo");
    expect(t.fs.files.get("/w/a.txt")).toBe("0");
    expect(t.agent.session(s.id)!.history).toHaveLength(1);
    await t.prompt(s.id, "/undo");
    expect(t.notices().at(-1)).toBe("↩ nothing to undo: the conversation has no turn.");
  });

  it("still undoes a turn after the same prompt sent again failed before any answer (its records are not forgotten)", async () => {
    const t = setup({
      replies: [writeReply("a.txt", "1"), textReply("ok"), errorReply({ kind: "network", message: "connection reset" })],
      files: { "/w/a.txt": "0" },
    });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "continue");
    await t.prompt(s.id, "continue");
    expect(t.agent.session(s.id)!.history).toHaveLength(5);
    await t.prompt(s.id, "/undo");
    expect(t.fs.files.get("/w/a.txt")).toBe("0");
    expect(t.notices().at(-1)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed, history back to 0 message\(s\)\./);
  });

  it("undoes a turn compacted as it ran, and forgets the turns before it", async () => {
    const t = setup({
      replies: [
        writeReply("a.txt", "1"),
        textReply("ok"),
        toolReply([{ name: "write_file", input: { path: "b.txt", content: "2" } }], "", { inputTokens: 5000, outputTokens: 10 }),
        textReply("the summary"),
        textReply("ok"),
      ],
      files: { "/w/a.txt": "0" },
      compact: { threshold: 1000, keepLastTurns: 1 },
    });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "one");
    await t.prompt(s.id, "two");
    expect(t.agent.session(s.id)!.history[1]).toMatchObject({ role: "user", summary: true });
    await t.prompt(s.id, "/undo");
    expect(t.fs.files.has("/w/b.txt")).toBe(false);
    expect(t.notices().at(-1)).toMatch(/^↩ undid the last turn: 0 file\(s\) restored, 1 removed, history back to 1 message\(s\)\./);
    await t.prompt(s.id, "/undo");
    expect(t.fs.files.get("/w/a.txt")).toBe("1");
  });

  it("after /compact, still undoes the turns it kept whole; /new forgets them all", async () => {
    const t = setup({
      replies: [writeReply("a.txt", "1"), textReply("ok"), writeReply("b.txt", "2"), textReply("ok"), textReply("the summary")],
      files: { "/w/a.txt": "0" },
      compact: { threshold: 1_000_000, keepLastTurns: 1 },
    });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "one");
    await t.prompt(s.id, "two");
    await t.prompt(s.id, "/compact");
    expect(t.agent.session(s.id)!.history[1]).toMatchObject({ role: "user", summary: true });
    await t.prompt(s.id, "/undo");
    expect(t.fs.files.has("/w/b.txt")).toBe(false);
    expect(t.notices().at(-1)).toMatch(/^↩ undid the last turn: 0 file\(s\) restored, 1 removed, history back to 1 message\(s\)\./);
    expect(t.fs.files.get("/w/a.txt")).toBe("1");
    await t.prompt(s.id, "/new");
    expect(t.undo.logs.get(`/w|${s.id}`)).toEqual({ turns: [] });
  });

  it("restores nothing while a file is not as the turn left it, until /undo force", async () => {
    const t = setup({
      replies: [
        toolReply([
          { name: "write_file", input: { path: "a.txt", content: "model" } },
          { name: "write_file", input: { path: "b.txt", content: "x" } },
        ]),
        textReply("ok"),
      ],
      files: { "/w/a.txt": "mine" },
    });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "write");
    t.fs.files.set("/w/a.txt", "edited by the user since");
    const length = t.agent.session(s.id)!.history.length;
    await t.prompt(s.id, "/undo");
    expect(t.notices().at(-1)).toBe(conflictLine([{ path: "/w/a.txt", reason: "changed since the turn" }]));
    expect(t.fs.files.get("/w/a.txt")).toBe("edited by the user since");
    expect(t.fs.files.get("/w/b.txt")).toBe("x");
    expect(t.agent.session(s.id)!.history).toHaveLength(length);
    await t.prompt(s.id, "/undo force");
    expect(t.fs.files.get("/w/a.txt")).toBe("mine");
    expect(t.fs.files.has("/w/b.txt")).toBe(false);
    expect(t.agent.session(s.id)!.history).toHaveLength(1);
  });

  it("names a file past the size it keeps as not restorable, and restores the others", async () => {
    const t = setup({
      replies: [
        toolReply([
          { name: "write_file", input: { path: "big.txt", content: "small" } },
          { name: "write_file", input: { path: "a.txt", content: "new" } },
        ]),
        textReply("ok"),
      ],
      files: { "/w/big.txt": "x".repeat(100), "/w/a.txt": "old" },
      limits: { maxFileBytes: 10, maxSessionBytes: 1000 },
    });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "write");
    await t.prompt(s.id, "/undo");
    expect(t.fs.files.get("/w/a.txt")).toBe("old");
    expect(t.fs.files.get("/w/big.txt")).toBe("small");
    expect(t.notices().at(-1)).toContain("\nNot restorable (left as they are):\n- /w/big.txt: larger than 10 bytes\n");
  });

  it("drops the oldest turns to keep a session's before-states within its budget", async () => {
    const t = setup({
      replies: [writeReply("a.txt", "a2"), textReply("ok"), writeReply("b.txt", "b2"), textReply("ok")],
      files: { "/w/a.txt": "a".repeat(8), "/w/b.txt": "b".repeat(8) },
      limits: { maxFileBytes: 100, maxSessionBytes: 10 },
    });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "one");
    await t.prompt(s.id, "two");
    expect(t.undo.logs.get(`/w|${s.id}`)?.turns.map((turn) => turn.question)).toEqual(["two"]);
    expect([...(t.undo.blobs.get(`/w|${s.id}`)?.keys() ?? [])]).toHaveLength(1);
    await t.prompt(s.id, "/undo");
    await t.prompt(s.id, "/undo");
    expect(t.notices().at(-1)).toContain("(the turn made no file change mm saw)");
    expect(t.fs.files.get("/w/a.txt")).toBe("a2");
  });

  it("keeps the turn and what a file held while it cannot be written back: /undo again finishes, /undo force takes it out", async () => {
    const t = setup({
      replies: [writeBothReply(), textReply("ok"), writeReply("a.txt", "new"), textReply("ok")],
      files: { "/w/a.txt": "old", "/w/b.txt": "old" },
    });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "write");
    const turn = t.agent.session(s.id)!.history.length;
    t.undo.failing.set("/w/a.txt", "read-only file system");
    await t.prompt(s.id, "/undo");
    expect(t.notices().at(-1)).toBe(
      "↩ undo not finished: 1 file(s) restored, 0 removed, but 1 could not be restored:\n- /w/a.txt: read-only file system\n" +
        "The turn stays in the conversation, and what those files held before it is kept with it: send /undo again once they can be written, " +
        "or /undo force to take the turn out anyway (they stay as they are, and files changed since the turn are put back too).",
    );
    expect(t.agent.session(s.id)!.history).toHaveLength(turn);
    expect(t.fs.files.get("/w/b.txt")).toBe("old");
    // Once it can be written: the rest is put back, what was already is left.
    t.undo.failing.delete("/w/a.txt");
    await t.prompt(s.id, "/undo");
    expect(t.notices().at(-1)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed, history back to 0 message\(s\)\./);
    expect(t.fs.files.get("/w/a.txt")).toBe("old");
    expect(t.agent.session(s.id)!.history).toHaveLength(1);
    // Forced, a file that cannot be written is named and the turn goes.
    await t.prompt(s.id, "write");
    t.undo.failing.set("/w/a.txt", "read-only file system");
    await t.prompt(s.id, "/undo force");
    expect(t.notices().at(-1)).toContain("\nCould not be restored (left as they are):\n- /w/a.txt: read-only file system\n");
    expect(t.agent.session(s.id)!.history).toHaveLength(1);
  });

  it("names a file whose kept copy is gone (its blob missing) as not restorable, and still takes the turn out: trying again could not help", async () => {
    const t = setup({
      replies: [writeBothReply(), textReply("ok")],
      files: { "/w/a.txt": "old a", "/w/b.txt": "old b" },
    });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "write");
    const blobs = t.undo.blobs.get(`/w|${s.id}`)!;
    blobs.delete(t.undo.hash(new TextEncoder().encode("old a")));
    await t.prompt(s.id, "/undo");
    expect(t.notices().at(-1)).toMatch(
      /^↩ undid the last turn: 1 file\(s\) restored, 0 removed, history back to 0 message\(s\)\.\nNot restorable \(left as they are\):\n- \/w\/a\.txt: undo data is corrupt: blob [0-9a-f]+ is missing\n/,
    );
    expect(t.fs.files.get("/w/a.txt")).toBe("new");
    expect(t.fs.files.get("/w/b.txt")).toBe("old b");
    expect(t.agent.session(s.id)!.history).toHaveLength(1);
  });

  it("keeps to the session's file system's boundary: a path it refuses or lands elsewhere now is named, not written", async () => {
    let planted = false;
    const t = setup({
      replies: [writeBothReply(), textReply("ok")],
      files: { "/w/a.txt": "old", "/w/b.txt": "old" },
      realPath: (path) => {
        if (!planted) return ok(path);
        if (path === "/w/a.txt") return err({ kind: "io", path, message: "refused by the sandbox" });
        return ok(path === "/w/b.txt" ? "/home/u/.bashrc" : path);
      },
    });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "write");
    planted = true;
    await t.prompt(s.id, "/undo");
    expect(t.fs.files.get("/w/a.txt")).toBe("new");
    expect(t.fs.files.get("/w/b.txt")).toBe("new");
    expect(t.fs.files.has("/home/u/.bashrc")).toBe(false);
    expect(t.notices().at(-1)).toContain(
      "but 2 could not be restored:\n- /w/a.txt: refused by the sandbox: /w/a.txt\n" +
        "- /w/b.txt: a symbolic link on its way now leads elsewhere (/home/u/.bashrc); not written through\n",
    );
  });

  it("watches a tool that does not say what it changes (an MCP server's) with the change tracker, and records only", async () => {
    const mcpWrite = (fs: InMemoryFileSystem): Tool =>
      defineTool({
        name: "srv__write_file",
        description: "an MCP server's write",
        kind: "execute",
        gated: false,
        input: object({ path: string(), content: string() }),
        title: (input) => `srv: write ${input.path}`,
        run: async (input) => {
          fs.files.set(input.path, input.content);
          fs.files.delete("/w/gone.txt");
          return completed("written");
        },
      });
    const t = setup({
      replies: [toolReply([{ name: "srv__write_file", input: { path: "/w/a.txt", content: "by the server" } }]), textReply("ok")],
      files: { "/w/a.txt": "old", "/w/gone.txt": "bin\u0000ary" },
      tools: (fs) => [mcpWrite(fs)],
    });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "use the server");
    const result = t.agent.session(s.id)!.history.find((m) => m.role === "tool");
    expect(result).toMatchObject({ output: "written" });
    expect(result && "diffs" in result).toBe(false);
    await t.prompt(s.id, "/undo");
    expect(filesOf(t.fs)).toEqual({ "/w/a.txt": "old", "/w/gone.txt": "bin\u0000ary" });
    expect(t.notices().at(-1)).toMatch(/^↩ undid the last turn: 2 file\(s\) restored, 0 removed/);
  });

  it("never records mm's own files, the sessions dir", async () => {
    let fsRef: { files: Map<string, string> } | undefined;
    const t = setup({
      replies: [toolReply([{ name: "bash", input: { command: "rm -rf .mm; echo x > a.txt" } }]), textReply("ok")],
      files: { "/w/.mm/sessions/old.json": "{}" },
      shell: () => {
        fsRef!.files.delete("/w/.mm/sessions/old.json");
        fsRef!.files.set("/w/a.txt", "x");
        return {};
      },
    });
    fsRef = t.fs;
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "clean up");
    expect(t.undo.logs.get(`/w|${s.id}`)?.turns[0]?.files.map((f) => f.path)).toEqual(["/w/a.txt"]);
  });

  it("drops a closed session's undo data when sessions are not kept: nothing could undo it again, it would only hold memory", async () => {
    const t = setup({
      replies: [writeReply("a.txt", "new"), textReply("ok")],
      files: { "/w/a.txt": "old" },
      persist: false,
    });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "write");
    expect([...(t.undo.blobs.get(`/w|${s.id}`)?.keys() ?? [])]).toHaveLength(1);
    expect(t.agent.closeSession(s.id)).toBe(true);
    await t.agent.whenIdle();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(t.undo.logs.get(`/w|${s.id}`)).toEqual({ turns: [] });
    expect([...(t.undo.blobs.get(`/w|${s.id}`)?.keys() ?? [])]).toHaveLength(0);
  });

  it("removes a session's undo data with the session", async () => {
    const t = setup({ replies: [writeReply("a.txt", "new"), textReply("ok")], files: {} });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "write");
    expect(t.undo.logs.get(`/w|${s.id}`)?.turns).toHaveLength(1);
    (await t.agent.removeSession("/w", s.id))._unsafeUnwrap();
    expect(t.undo.logs.get(`/w|${s.id}`)).toEqual({ turns: [] });
  });

  it("is not intercepted without an undo store: the text goes to the model", async () => {
    const t = setup({ replies: [textReply("what undo?")], files: {}, undo: false });
    const s = await t.agent.startSession("/w");
    await t.prompt(s.id, "/undo");
    expect(
      t.agent
        .session(s.id)!
        .history.slice(1)
        .map((m) => m.role),
    ).toEqual(["user", "assistant"]);
    expect(availableCommands([]).map((c) => c.name)).toEqual(["new", "compact"]);
    expect(availableCommands([{ name: "undo", description: "a skill" }], { undo: true }).map((c) => c.name)).toEqual(["new", "compact", "undo"]);
  });
});

describe("planUndo", () => {
  const blob = (hash: string) => ({ kind: "blob" as const, hash, size: 1 });
  it("restores, removes, leaves what is back already, and refuses what changed since", () => {
    const plan = planUndo(
      [
        { path: "/a", before: blob("1"), after: blob("2") },
        { path: "/b", before: { kind: "absent" }, after: blob("3") },
        { path: "/c", before: blob("4"), after: { kind: "absent" } },
        { path: "/d", before: blob("5"), after: blob("6") },
        { path: "/e", before: blob("7"), after: blob("8") },
      ],
      [blob("2"), blob("3"), { kind: "absent" }, blob("5"), blob("other")],
    );
    expect(plan.actions).toEqual([
      { path: "/a", to: blob("1"), kind: "restore" },
      { path: "/b", to: { kind: "absent" }, kind: "remove" },
      { path: "/c", to: blob("4"), kind: "restore" },
      { path: "/e", to: blob("7"), kind: "restore" },
    ]);
    expect(plan.conflicts).toEqual([{ path: "/e", reason: "changed since the turn" }]);
    expect(plan.notRestorable).toEqual([]);
    expect(plan.kept).toEqual([]);
  });

  it("removes nothing the turn made when a file it changed or removed cannot be brought back (a rename of a big file)", () => {
    const plan = planUndo(
      [
        { path: "/archive.csv", before: { kind: "absent" }, after: blob("big") },
        { path: "/data.csv", before: { kind: "unknown", reason: "too big" }, after: { kind: "absent" } },
        { path: "/notes.txt", before: blob("1"), after: blob("2") },
      ],
      [blob("big"), { kind: "absent" }, blob("2")],
    );
    expect(plan).toEqual({
      actions: [{ path: "/notes.txt", to: blob("1"), kind: "restore" }],
      conflicts: [],
      notRestorable: [{ path: "/data.csv", reason: "too big" }],
      kept: [{ path: "/archive.csv", reason: KEPT_REASON }],
    });
    expect(undoneLine({ restored: 1, removed: 0, messages: 2, notRestorable: plan.notRestorable, kept: plan.kept, failed: [], recorded: true })).toBe(
      "↩ undid the last turn: 1 file(s) restored, 0 removed, history back to 2 message(s).\n" +
        "Not restorable (left as they are):\n- /data.csv: too big\n" +
        `Kept (they may hold what the files not restorable held):\n- /archive.csv: ${KEPT_REASON}\n${NOT_UNDONE}`,
    );
  });

  it("leaves, named, what the turn made that it cannot read (a link): no loss, so the files it made are still removed", () => {
    const link = { kind: "unknown" as const, reason: "a symbolic link is there now" };
    const plan = planUndo(
      [
        { path: "/link", before: { kind: "absent" }, after: link },
        { path: "/made", before: { kind: "absent" }, after: blob("1") },
      ],
      [link, blob("1")],
    );
    expect(plan).toEqual({
      actions: [{ path: "/made", to: { kind: "absent" }, kind: "remove" }],
      conflicts: [],
      notRestorable: [{ path: "/link", reason: "made by the turn, not removed: a symbolic link is there now" }],
      kept: [],
    });
  });

  it("leaves a file the turn left as it found it, whatever it holds now (made and removed, or changed back)", () => {
    const plan = planUndo(
      [
        { path: "/tmp-script", before: { kind: "absent" }, after: { kind: "absent" } },
        { path: "/reverted", before: blob("1"), after: blob("1") },
      ],
      [blob("the user's own since"), blob("the user's edit since")],
    );
    expect(plan).toEqual({ actions: [], conflicts: [], notRestorable: [], kept: [] });
  });

  it("puts a mode back where it was seen, never wider than the file's mode now when that changed after the record", () => {
    const withMode = (hash: string, mode: number) => ({ kind: "blob" as const, hash, size: 1, mode });
    const plan = planUndo(
      [
        // The turn's chmod +x, seen: the mode before comes back.
        { path: "/chmod", before: withMode("1", 0o644), after: withMode("1", 0o755) },
        // A mode not seen before the turn: content alone decides, the file keeps its mode.
        { path: "/unseen", before: blob("2"), after: withMode("2", 0o755) },
        // Written by the turn, then made private by the user: the content back, the file still private.
        { path: "/private", before: withMode("3", 0o644), after: withMode("4", 0o644) },
        // Written by the turn then chmod +x by it (no tracker reports a mode alone): not a conflict, 0644 back.
        { path: "/script", before: withMode("5", 0o644), after: withMode("6", 0o644) },
      ],
      [withMode("1", 0o755), withMode("2", 0o755), withMode("4", 0o600), withMode("6", 0o755)],
    );
    // Put back narrowed by an /undo that did not finish, or by hand with a mode no wider: done, not a conflict.
    const again = planUndo(
      [
        { path: "/private", before: withMode("3", 0o644), after: withMode("4", 0o644) },
        { path: "/removed", before: withMode("7", 0o700), after: { kind: "absent" } },
      ],
      [withMode("3", 0o600), withMode("7", 0o600)],
    );
    expect(again).toEqual({ actions: [], conflicts: [], notRestorable: [], kept: [] });
    expect(plan.actions).toEqual([
      { path: "/chmod", to: withMode("1", 0o644), kind: "restore" },
      { path: "/private", to: withMode("3", 0o600), kind: "restore" },
      { path: "/script", to: withMode("5", 0o644), kind: "restore" },
    ]);
    expect(plan.conflicts).toEqual([]);
  });

  it("says what it did in one chunk", () => {
    expect(undoneLine({ restored: 3, removed: 1, messages: 4, notRestorable: [], failed: [], recorded: true })).toMatch(
      /^↩ undid the last turn: 3 file\(s\) restored, 1 removed, history back to 4 message\(s\)\.\nNot undone: /,
    );
  });
});
