/**
 * The JSON store's lock file `<id>.lock`: taken by a save or a load, refused to another live process
 * (`busy`, naming it), taken over from a dead one, checked before every write.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { systemMessage, userMessage, type History, type StoredSession } from "@mm/core";
import { jsonSessionStore } from "./json-session-store.js";
import { currentOwner, type LockOwner } from "./process-identity.js";

const ID = "20260916-101530-4f2a9c1e";
let cwd = "";
beforeEach(async () => {
  cwd = await mkdtemp(join(tmpdir(), "mm-lock-"));
});
afterEach(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const dir = () => join(cwd, ".mm", "sessions");
const lockPath = () => join(dir(), `${ID}.lock`);
const sessionOf = (history: History): StoredSession => ({ id: ID, cwd, createdAt: 1_000, updatedAt: 2_000, history });
const history: History = [systemMessage("s"), userMessage("hi")];
const me = currentOwner();
const store = () => jsonSessionStore({ dir: ".mm/sessions" });
const plantLock = async (owner: unknown) => {
  await mkdir(dir(), { recursive: true });
  await writeFile(lockPath(), typeof owner === "string" ? owner : `${JSON.stringify(owner)}\n`);
};
const savedByOther = async () => {
  const other = jsonSessionStore({ dir: ".mm/sessions", owner: { ...me, pid: 1 } });
  await other.save(sessionOf(history));
  await other.release(cwd, ID);
};
/** The pid of a process that has just ended. */
const deadPid = (): number => Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString());

describe("jsonSessionStore: the lock file", () => {
  it("names this process, 0600, taken at the first save and dropped at release", async () => {
    const s = store();
    await s.save(sessionOf(history));
    expect(JSON.parse(await readFile(lockPath(), "utf8"))).toEqual(me);
    expect((await stat(lockPath())).mode & 0o777).toBe(0o600);
    await s.release(cwd, ID);
    expect((await readdir(dir())).sort()).toEqual([".gitignore", `${ID}.json`]);
  });

  it("is taken by a load, and dropped again when the load fails", async () => {
    await savedByOther();
    const s = store();
    await s.load(cwd, ID);
    expect(JSON.parse(await readFile(lockPath(), "utf8")).pid).toBe(process.pid);
    await s.release(cwd, ID);
    await writeFile(join(dir(), `${ID}.json`), "{ not json");
    expect((await s.load(cwd, ID))._unsafeUnwrapErr().kind).toBe("corrupt");
    expect((await readdir(dir())).sort()).toEqual([".gitignore", `${ID}.json`]);
  });

  it("refuses a live holder's session, busy, naming its pid, and never touches its lock", async () => {
    await savedByOther();
    await plantLock({ pid: process.ppid, host: me.host, ...(me.boot !== undefined ? { boot: me.boot } : {}) });
    const before = await readFile(lockPath(), "utf8");
    const s = store();
    expect((await s.load(cwd, ID))._unsafeUnwrapErr()).toEqual({ kind: "busy", id: ID, holder: `pid ${process.ppid}` });
    expect((await s.hold(cwd, ID))._unsafeUnwrapErr().kind).toBe("busy");
    expect((await s.save(sessionOf([...history, userMessage("x")])))._unsafeUnwrapErr().kind).toBe("busy");
    expect(await readFile(lockPath(), "utf8")).toBe(before);
  });

  it("names the host of a holder on another machine (it cannot be checked, so it counts as alive)", async () => {
    await savedByOther();
    await plantLock({ pid: 4242, host: "build-7" });
    expect((await store().load(cwd, ID))._unsafeUnwrapErr()).toEqual({ kind: "busy", id: ID, holder: "pid 4242 on host build-7" });
  });

  it.each([
    ["a dead process", () => ({ ...me, pid: deadPid() })],
    ["a reused pid (same pid, another start time)", () => ({ ...me, pid: process.ppid, started: "1" })],
    ["another boot", () => ({ ...me, pid: process.ppid, boot: "00000000-0000-0000-0000-000000000000" })],
    ["garbage", () => "not a lock"],
  ])("takes over the lock of %s", async (_label, owner) => {
    await savedByOther();
    await plantLock(owner());
    const s = store();
    expect((await s.load(cwd, ID))._unsafeUnwrap().history).toEqual(history);
    expect(JSON.parse(await readFile(lockPath(), "utf8"))).toEqual(me);
    expect((await readdir(dir())).filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });

  it("takes its lock again when it was removed, if nothing else changed", async () => {
    const s = store();
    await s.save(sessionOf(history));
    await unlink(lockPath());
    expect((await s.save(sessionOf([...history, userMessage("more")]))).isOk()).toBe(true);
    expect(JSON.parse(await readFile(lockPath(), "utf8"))).toEqual(me);
  });

  it("refuses, as a conflict, to write over a session another writer changed", async () => {
    const s = store();
    await s.save(sessionOf(history));
    const elsewhere: LockOwner = { pid: 4242, host: "elsewhere" };
    const other = jsonSessionStore({ dir: ".mm/sessions", owner: elsewhere, alive: () => false });
    await other.load(cwd, ID);
    await other.save(sessionOf([...history, userMessage("from the other")]));
    expect((await s.hold(cwd, ID))._unsafeUnwrapErr().kind).toBe("busy");
    await other.release(cwd, ID);
    const refused = (await s.save(sessionOf([...history, userMessage("mine")])))._unsafeUnwrapErr();
    expect(refused.kind).toBe("conflict");
    expect((await s.load(cwd, ID))._unsafeUnwrap().history.at(-1)).toEqual(userMessage("from the other"));
  });
});

// Issue 28: a FIFO at `<id>.lock` hung the load (and, the store's queue being shared, every later
// operation); a lock that is a symlink was followed (to /dev/zero: an endless read). Issue 36: it was
// then used with no lock at all; now it is replaced by a real lock, never written through.
describe("a lock that is no lock file", () => {
  it.each([
    ["a FIFO", async () => void spawnSync("mkfifo", [lockPath()])],
    ["a symlink", async () => symlink("/dev/zero", lockPath())],
    ["a symlink", async () => symlink(join(cwd, "target.txt"), lockPath())],
  ])("is replaced by a lock of ours, never read nor waited on, when it is %s, and named once", async (what, plant) => {
    const lines: string[] = [];
    await writeFile(join(cwd, "target.txt"), "untouched\n");
    const s = jsonSessionStore({ dir: ".mm/sessions", warn: (line) => lines.push(line) });
    await s.save(sessionOf(history));
    await s.release(cwd, ID);
    await plant();
    expect((await s.load(cwd, ID)).isOk()).toBe(true);
    expect((await s.save({ ...sessionOf(history), updatedAt: 3_000 })).isOk()).toBe(true);
    expect(lines).toEqual([`session ${ID}: the lock ${lockPath()} was ${what}, not a lock file: replaced by a new lock`]);
    expect(await readFile(join(cwd, "target.txt"), "utf8")).toBe("untouched\n");
    expect((await stat(lockPath())).isFile()).toBe(true);
    expect(JSON.parse(await readFile(lockPath(), "utf8"))).toMatchObject({ pid: me.pid });
    // Held: another live process cannot take it.
    const other = jsonSessionStore({ dir: ".mm/sessions", owner: { ...me, pid: 1 }, alive: () => true });
    expect((await other.load(cwd, ID))._unsafeUnwrapErr().kind).toBe("busy");
  });

  it("refuses the session, naming the lock once, when a directory sits in its place; other sessions go on", async () => {
    const lines: string[] = [];
    const s = jsonSessionStore({ dir: ".mm/sessions", warn: (line) => lines.push(line) });
    await s.save(sessionOf(history));
    await s.release(cwd, ID);
    await mkdir(lockPath());
    const message = `the lock ${lockPath()} is a directory, not a lock file: remove it`;
    expect((await s.load(cwd, ID))._unsafeUnwrapErr()).toEqual({ kind: "io", id: ID, message: `${message} (the session is never used without its lock)` });
    expect((await s.save({ ...sessionOf(history), updatedAt: 3_000 })).isErr()).toBe(true);
    expect(lines).toEqual([`session ${ID}: ${message}; the session is not used until then`]);
    const other = { ...sessionOf(history), id: "20260916-101530-00000001" };
    expect((await s.save(other)).isOk()).toBe(true);
    expect((await s.load(cwd, other.id)).isOk()).toBe(true);
  });
});
