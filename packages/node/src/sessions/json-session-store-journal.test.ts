/**
 * The JSON store's journal: saves that only add messages are appended to `<id>.journal`, the document
 * is rewritten when the history is rewritten or the journal outgrows it, and loading recovers from a
 * torn last line, a journal already folded, or a document written before journals existed.
 */
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistantMessage, systemMessage, userMessage, type History, type Message, type StoredSession } from "@mm/core";
import { encodeSessionDocument } from "./json-session-document.js";
import { jsonSessionStore } from "./json-session-store.js";

const ID = "20260916-101530-4f2a9c1e";
let cwd = "";
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "mm-journal-"));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const dir = () => join(cwd, ".mm", "sessions");
const documentPath = () => join(dir(), `${ID}.json`);
const journalPath = () => join(dir(), `${ID}.journal`);
const store = () => jsonSessionStore({ dir: ".mm/sessions" });
const sessionOf = (history: History, updatedAt = 2_000): StoredSession => ({ id: ID, cwd, createdAt: 1_000, updatedAt, history });
const journalLinesOf = async () =>
  (await readFile(journalPath(), "utf8"))
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** A turn: the question, then `calls` tool calls with their results, then the answer. */
const turn = (n: number, calls = 2): Message[] => [
  userMessage(`question ${n}`),
  ...Array.from({ length: calls }, (_, i): Message[] => [
    assistantMessage("", [{ id: `call_${n * 10 + i}`, name: "bash", input: { command: `echo ${i}` } }]),
    { role: "tool", callId: `call_${n * 10 + i}`, toolName: "bash", status: "completed", output: `${i}\n[exit code: 0]` },
  ]).flat(),
  assistantMessage(`answer ${n}`),
];

/** Saves the history one message at a time, as a turn does. */
const saveStepwise = async (s: ReturnType<typeof store>, from: readonly Message[], to: History) => {
  for (let n = from.length + 1; n <= to.length; n++) expect((await s.save(sessionOf(to.slice(0, n) as unknown as History, 2_000 + n))).isOk()).toBe(true);
};

const loadFresh = async () => {
  const reader = store();
  const loaded = (await reader.load(cwd, ID))._unsafeUnwrap();
  return { reader, loaded };
};

describe("jsonSessionStore: appending", () => {
  it("appends each new message to the journal and leaves the document alone", async () => {
    const s = store();
    const base: History = [systemMessage("s"), ...turn(1)];
    await s.save(sessionOf(base));
    const document = await readFile(documentPath());
    const full: History = [...base, ...turn(2)];
    await saveStepwise(s, base, full);
    expect(await readFile(documentPath())).toEqual(document);
    const lines = await journalLinesOf();
    expect(lines[0]).toEqual({ format: "mm-session-journal", version: 1, id: ID, base: JSON.parse(document.toString()).generation, messages: base.length });
    expect(lines.slice(1).map((l) => l.at)).toEqual(full.slice(base.length).map((_, i) => base.length + i));
    expect(lines[1]).toEqual({ at: base.length, updatedAt: new Date(2_000 + base.length + 1).toISOString(), message: full[base.length] });
    expect((await stat(journalPath())).mode & 0o777).toBe(0o600);
    expect((await loadFresh()).loaded).toEqual(sessionOf(full, 2_000 + full.length));
  });

  it("writes nothing when nothing is new", async () => {
    const s = store();
    const history: History = [systemMessage("s"), ...turn(1)];
    await s.save(sessionOf(history));
    await s.save(sessionOf([...history, userMessage("more")]));
    const before = await stat(journalPath());
    const documentBefore = await stat(documentPath());
    await s.save(sessionOf([...history, userMessage("more")], 9_000));
    expect((await stat(journalPath())).mtimeMs).toBe(before.mtimeMs);
    expect((await stat(documentPath())).mtimeMs).toBe(documentBefore.mtimeMs);
  });

  it("journals a new system prompt as message 0", async () => {
    const s = store();
    await s.save(sessionOf([systemMessage("old prompt"), userMessage("hi")]));
    await s.save(sessionOf([systemMessage("new prompt"), userMessage("hi"), assistantMessage("hello")]));
    expect((await journalLinesOf()).slice(1).map((l) => l.at)).toEqual([0, 2]);
    expect((await loadFresh()).loaded.history).toEqual([systemMessage("new prompt"), userMessage("hi"), assistantMessage("hello")]);
  });

  it("rewrites the document and drops the journal when the history is rewritten (/new, compaction)", async () => {
    const s = store();
    const history: History = [systemMessage("s"), ...turn(1)];
    await s.save(sessionOf(history));
    await s.save(sessionOf([...history, userMessage("more")]));
    await s.save(sessionOf([systemMessage("s")]));
    expect(await readdir(dir())).not.toContain(`${ID}.journal`);
    expect((await loadFresh()).loaded.history).toEqual([systemMessage("s")]);
  });

  it("folds the journal into the document once it outgrows it (and 1 MiB)", async () => {
    const s = store();
    const big = "x".repeat(400_000);
    let history: History = [systemMessage("s")];
    await s.save(sessionOf(history));
    for (let i = 0; i < 2; i++) {
      history = [...history, userMessage(`${i} ${big}`)];
      await s.save(sessionOf(history));
    }
    expect(await readdir(dir())).toContain(`${ID}.journal`);
    history = [...history, userMessage(`2 ${big}`)];
    await s.save(sessionOf(history));
    expect(await readdir(dir())).not.toContain(`${ID}.journal`);
    expect(JSON.parse(await readFile(documentPath(), "utf8")).messages).toHaveLength(4);
    for (let i = 3; i < 5; i++) {
      history = [...history, userMessage(`${i} ${big}`)];
      await s.save(sessionOf(history));
    }
    expect(await readdir(dir())).toContain(`${ID}.journal`);
    expect((await loadFresh()).loaded.history).toEqual(history);
  });

  it("folds the journal into the document when released, and drops the lock", async () => {
    const s = store();
    const history: History = [systemMessage("s"), ...turn(1), ...turn(2)];
    await saveStepwise(s, [], history);
    expect((await s.release(cwd, ID)).isOk()).toBe(true);
    expect((await readdir(dir())).sort()).toEqual([".gitignore", `${ID}.json`]);
    expect(JSON.parse(await readFile(documentPath(), "utf8")).messages).toEqual(history);
  });

  it("something else at the journal's path is never written through: the document is rewritten whole instead", async () => {
    const s = store();
    const base: History = [systemMessage("s"), userMessage("a")];
    await s.save(sessionOf(base));
    await mkdir(journalPath());
    const more: History = [...base, assistantMessage("b")];
    expect((await s.save(sessionOf(more))).isOk()).toBe(true);
    const all: History = [...more, userMessage("c")];
    expect((await s.save(sessionOf(all))).isOk()).toBe(true);
    expect(await readdir(journalPath())).toEqual([]);
    expect(JSON.parse(await readFile(documentPath(), "utf8")).messages).toEqual(all);
  });

  it("a sessions dir replaced by a symlink after the first save is never written through, nor its lock released through it", async () => {
    const s = store();
    const base: History = [systemMessage("s"), userMessage("a")];
    await s.save(sessionOf(base));
    await s.save(sessionOf([...base, assistantMessage("b")]));
    const outside = await mkdtemp(join(tmpdir(), "mm-outside-"));
    await rm(dir(), { recursive: true });
    await symlink(outside, dir());
    const refused = (await s.save(sessionOf([...base, assistantMessage("b"), userMessage("c")])))._unsafeUnwrapErr();
    expect(refused).toEqual({ kind: "io", id: ID, message: `sessions dir is a symlink: ${dir()}` });
    expect((await s.hold(cwd, ID))._unsafeUnwrapErr().kind).toBe("io");
    expect((await s.release(cwd, ID))._unsafeUnwrapErr().kind).toBe("io");
    expect(await readdir(outside)).toEqual([]);
    await rm(outside, { recursive: true });
  });

  it("a document removed or replaced by something else is written again whole at the next save", async () => {
    const s = store();
    const base: History = [systemMessage("s"), userMessage("a")];
    await s.save(sessionOf(base));
    await s.save(sessionOf([...base, assistantMessage("b")]));
    await rm(documentPath());
    const all: History = [...base, assistantMessage("b"), userMessage("c")];
    expect((await s.save(sessionOf(all))).isOk()).toBe(true);
    expect(await readdir(dir())).not.toContain(`${ID}.journal`);
    expect((await loadFresh()).loaded.history).toEqual(all);
  });
});

describe("jsonSessionStore: loading a journal", () => {
  const prepared = async () => {
    const s = store();
    const history: History = [systemMessage("s"), ...turn(1), ...turn(2)];
    await saveStepwise(s, [], history);
    return history;
  };

  it("ignores a torn last line, cuts it off, and appends after it", async () => {
    const history = await prepared();
    await appendFile(journalPath(), '{"at":12,"updatedAt":"2026-');
    const { reader, loaded } = await loadFresh();
    expect(loaded.history).toEqual(history);
    expect((await readFile(journalPath(), "utf8")).endsWith("\n")).toBe(true);
    const more: History = [...history, userMessage("after the crash")];
    expect((await reader.save(sessionOf(more))).isOk()).toBe(true);
    await reader.release(cwd, ID);
    expect((await loadFresh()).loaded.history).toEqual(more);
  });

  it("ignores and removes a journal of another generation (a fold that crashed before removing it)", async () => {
    const history = await prepared();
    const journal = await readFile(journalPath());
    await store().save(sessionOf([systemMessage("rewritten")]));
    await writeFile(journalPath(), journal);
    const { loaded } = await loadFresh();
    expect(loaded.history).toEqual([systemMessage("rewritten")]);
    expect(history.length).toBeGreaterThan(1);
    expect(await readdir(dir())).not.toContain(`${ID}.journal`);
  });

  it("refuses a journal with a bad line before its last as corrupt, touching nothing", async () => {
    await prepared();
    const text = (await readFile(journalPath(), "utf8")).split("\n");
    text[2] = '{"at":2,"updatedAt":"2026-01-01T00:00:00.000Z","message":{"role":"banana"}}';
    await writeFile(journalPath(), text.join("\n"));
    const error = (await store().load(cwd, ID))._unsafeUnwrapErr();
    expect(error).toEqual({ kind: "corrupt", id: ID, message: 'journal line 3.message.role: expected user/assistant/tool, got "banana"' });
    expect(await readFile(journalPath(), "utf8")).toBe(text.join("\n"));
  });

  it("refuses a journal line out of place as corrupt", async () => {
    await prepared();
    const lines = (await readFile(journalPath(), "utf8")).split("\n");
    [lines[1], lines[2]] = [lines[2]!, lines[1]!];
    await writeFile(journalPath(), lines.join("\n"));
    expect((await store().load(cwd, ID))._unsafeUnwrapErr()).toMatchObject({
      kind: "corrupt",
      message: expect.stringMatching(/^journal line 2\.at: expected 0 or 1, got 2$/),
    });
  });

  it("refuses a journal of a newer version", async () => {
    await prepared();
    const lines = (await readFile(journalPath(), "utf8")).split("\n");
    lines[0] = JSON.stringify({ ...JSON.parse(lines[0]!), version: 2 });
    await writeFile(journalPath(), lines.join("\n"));
    expect((await store().load(cwd, ID))._unsafeUnwrapErr()).toEqual({ kind: "unsupported-version", id: ID, version: 2 });
  });

  it("loads a document written before journals (no generation) and rewrites it at its first save", async () => {
    const history: History = [systemMessage("s"), userMessage("old")];
    await mkdir(dir(), { recursive: true });
    await writeFile(documentPath(), encodeSessionDocument(sessionOf(history))._unsafeUnwrap());
    expect(JSON.parse(await readFile(documentPath(), "utf8")).generation).toBeUndefined();
    const { reader, loaded } = await loadFresh();
    expect(loaded.history).toEqual(history);
    await reader.save(sessionOf([...loaded.history, assistantMessage("new")]));
    expect(await readdir(dir())).not.toContain(`${ID}.journal`);
    expect(JSON.parse(await readFile(documentPath(), "utf8")).generation).toMatch(/^[0-9a-f]{12}$/);
    await reader.save(sessionOf([...loaded.history, assistantMessage("new"), userMessage("newer")]));
    expect(await readdir(dir())).toContain(`${ID}.journal`);
  });
});
