/**
 * When the journal's appends reach the disk: an append whose history ends with tool calls is flushed
 * (`fdatasync`) before the save returns, as the calls run next; any other (tool results, an answer) is
 * written before the save returns and flushed on the thread pool, and the store's next operation on
 * the session waits for that flush. A flush that fails makes the next save rewrite the document whole.
 * `fdatasync` and `fdatasyncSync` are watched (and held or failed) through a mock of node:fs.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { assistantMessage, systemMessage, userMessage, type History, type Message, type StoredSession } from "@mm/core";
import { jsonSessionStore } from "./json-session-store.js";

type FlushCallback = (error: NodeJS.ErrnoException | null) => void;

const flushes = vi.hoisted(() => ({
  sync: 0,
  /** Background flushes waiting to be let through (`release`) or failed (`fail`). */
  held: [] as { fd: number; done: FlushCallback }[],
  hold: false,
}));

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  return {
    ...real,
    fdatasyncSync: (fd: number) => {
      flushes.sync += 1;
      real.fdatasyncSync(fd);
    },
    fdatasync: (fd: number, done: FlushCallback) => {
      if (flushes.hold) flushes.held.push({ fd, done });
      else real.fdatasync(fd, done);
    },
  };
});

const ID = "20260916-101530-4f2a9c1e";
let cwd = "";
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "mm-flush-"));
  flushes.sync = 0;
  flushes.held = [];
  flushes.hold = false;
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const journalPath = () => join(cwd, ".mm", "sessions", `${ID}.journal`);
const sessionOf = (history: readonly Message[], updatedAt = 2_000): StoredSession => ({
  id: ID,
  cwd,
  createdAt: 1_000,
  updatedAt,
  history: history as History,
});
const call = assistantMessage("", [{ id: "call_1", name: "bash", input: { command: "echo 1" } }]);
const result: Message = { role: "tool", callId: "call_1", toolName: "bash", status: "completed", output: "1\n[exit code: 0]" };
const base: Message[] = [systemMessage("s"), userMessage("q")];

/** A store holding a saved session whose journal exists (its first append made it, flushed at once). */
const withJournal = async () => {
  const store = jsonSessionStore({ dir: ".mm/sessions" });
  expect((await store.save(sessionOf(base))).isOk()).toBe(true);
  expect((await store.save(sessionOf([...base, call], 2_001))).isOk()).toBe(true);
  return store;
};

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("jsonSessionStore: flushing the journal", () => {
  it("flushes an append that ends with tool calls before the save returns", async () => {
    const store = await withJournal();
    flushes.hold = true;
    const before = flushes.sync;
    const second = assistantMessage("", [{ id: "call_2", name: "bash", input: { command: "echo 2" } }]);
    const saving = store.save(sessionOf([...base, call, result], 2_002));
    expect((await saving).isOk()).toBe(true);
    expect(flushes.held).toHaveLength(1);
    flushes.held[0]!.done(null);
    expect((await store.save(sessionOf([...base, call, result, second], 2_003))).isOk()).toBe(true);
    // The tool result went through the thread pool; the next calls were flushed before the save returned.
    expect(flushes.held).toHaveLength(1);
    expect(flushes.sync).toBe(before + 1);
  });

  it("writes a tool result before the save returns, flushes it on the thread pool, and the next operation waits for the flush", async () => {
    const store = await withJournal();
    flushes.hold = true;
    const syncBefore = flushes.sync;
    expect((await store.save(sessionOf([...base, call, result], 2_002))).isOk()).toBe(true);
    expect(flushes.sync).toBe(syncBefore);
    expect(flushes.held).toHaveLength(1);
    // Written: a reader (another process) already finds it.
    expect(await readFile(journalPath(), "utf8")).toContain('"callId":"call_1"');
    let next = false;
    const answered = store.save(sessionOf([...base, call, result, assistantMessage("done")], 2_003)).then(() => (next = true));
    await settle();
    await settle();
    expect(next).toBe(false);
    flushes.hold = false;
    flushes.held[0]!.done(null);
    await answered;
    expect(next).toBe(true);
    const lines = (await readFile(journalPath(), "utf8")).trim().split("\n");
    expect(lines.at(-1)).toContain('"text":"done"');
  });

  it("after a flush that failed, the next save rewrites the document whole, and it loads", async () => {
    const store = await withJournal();
    flushes.hold = true;
    expect((await store.save(sessionOf([...base, call, result], 2_002))).isOk()).toBe(true);
    flushes.hold = false;
    flushes.held[0]!.done(Object.assign(new Error("EIO: i/o error, fdatasync"), { code: "EIO" }));
    const final = [...base, call, result, assistantMessage("done")];
    expect((await store.save(sessionOf(final, 2_003))).isOk()).toBe(true);
    // Rewritten: the journal is folded into the document.
    await expect(readFile(journalPath(), "utf8")).rejects.toThrow(/ENOENT/);
    expect((await store.release(cwd, ID)).isOk()).toBe(true);
    const loaded = await jsonSessionStore({ dir: ".mm/sessions" }).load(cwd, ID);
    expect(loaded._unsafeUnwrap().history).toEqual(final);
  });
});
