/**
 * The JSON store on a disk that fails as a user's does: full (a small tmpfs) and read-only (a
 * read-only bind mount). The previous state stays whole and loadable, and once the disk is back the
 * next save writes everything. Needs root to mount; skipped otherwise, saying why.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistantMessage, systemMessage, userMessage, type History, type StoredSession } from "@mm/core";
import { mountReadOnly, mountsUnavailable, mountTmpfs, unmount } from "../../test-fixtures/mounts.js";
import { jsonSessionStore } from "./json-session-store.js";

const ID = "20260916-101530-4f2a9c1e";
const unavailable = mountsUnavailable();
if (unavailable !== undefined) process.stderr.write(`json-session-store-disk.test.ts skipped: ${unavailable}\n`);

let cwd = "";
let mounted: string | undefined;
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "mm-disk-"));
});
afterEach(async () => {
  if (mounted !== undefined) unmount(mounted);
  mounted = undefined;
  await rm(cwd, { recursive: true, force: true });
});

const dir = () => join(cwd, "sessions");
const sessionOf = (history: History): StoredSession => ({ id: ID, cwd, createdAt: 1_000, updatedAt: 2_000, history });
const store = () => jsonSessionStore({ dir: "sessions" });
const filesOf = async () => Promise.all([readFile(join(dir(), `${ID}.json`)), readFile(join(dir(), `${ID}.journal`)).catch(() => undefined)]);

/** Fills the disk under `path` until it has no room left. */
const fill = async (path: string) => {
  const chunk = Buffer.alloc(4096, 120);
  let size = 0;
  for (;;) {
    try {
      await writeFile(path, chunk, { flag: "a" });
      size += chunk.length;
    } catch {
      return size;
    }
  }
};

describe.skipIf(unavailable !== undefined)("jsonSessionStore on a failing disk", () => {
  it("full: an append cut short is undone, a failed rewrite leaves the document; the next save writes it all", async () => {
    await mkdir(dir());
    mountTmpfs(dir(), "256k");
    mounted = dir();
    const s = store();
    const base: History = [systemMessage("s"), userMessage("hello")];
    expect((await s.save(sessionOf(base))).isOk()).toBe(true);
    expect((await s.save(sessionOf([...base, assistantMessage("hi")]))).isOk()).toBe(true);
    const before = await filesOf();
    await writeFile(join(dir(), "spare"), Buffer.alloc(8192));
    await fill(join(dir(), "filler"));
    await rm(join(dir(), "spare"));
    const big = "y".repeat(20_000);
    const more: History = [...base, assistantMessage("hi"), userMessage(big), assistantMessage(big)];
    const appended = (await s.save(sessionOf(more)))._unsafeUnwrapErr();
    expect(appended).toMatchObject({ kind: "io", message: expect.stringContaining("ENOSPC") });
    const rewritten = (await s.save(sessionOf([systemMessage("s"), userMessage(big)])))._unsafeUnwrapErr();
    expect(rewritten).toMatchObject({ kind: "io", message: expect.stringContaining("ENOSPC") });
    expect(await filesOf()).toEqual(before);
    expect((await s.load(cwd, ID))._unsafeUnwrap().history).toEqual([...base, assistantMessage("hi")]);
    await rm(join(dir(), "filler"));
    const all: History = [...more, userMessage("after")];
    expect((await s.save(sessionOf(all))).isOk()).toBe(true);
    expect((await store().load(cwd, ID))._unsafeUnwrap().history).toEqual(all);
  });

  it("read-only: saves fail with the reason, the session still loads", async () => {
    const s = store();
    const history: History = [systemMessage("s"), userMessage("hello")];
    await s.save(sessionOf(history));
    await s.release(cwd, ID);
    mountReadOnly(dir());
    mounted = dir();
    const reader = store();
    expect((await reader.load(cwd, ID))._unsafeUnwrap().history).toEqual(history);
    const failed = (await reader.save(sessionOf([...history, assistantMessage("hi")])))._unsafeUnwrapErr();
    expect(failed).toMatchObject({ kind: "io", message: expect.stringContaining("EROFS") });
    expect((await reader.hold(cwd, ID))._unsafeUnwrapErr()).toMatchObject({ kind: "io" });
  });
});
