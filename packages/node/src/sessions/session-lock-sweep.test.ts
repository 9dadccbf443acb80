import { existsSync, lstatSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isSessionId } from "@mm/core";
import { afterAll, describe, expect, it } from "vitest";
import type { LockOwner } from "./process-identity.js";
import { sweepDeadLocks } from "./session-lock.js";

const dir = mkdtempSync(join(tmpdir(), "mm-lock-sweep-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const self: LockOwner = { pid: 1, started: "1", boot: "b", host: "h" };
const owner = (pid: number): LockOwner => ({ pid, started: "1", boot: "b", host: "h" });
const lock = (id: string, holder: LockOwner) => writeFileSync(join(dir, `${id}.lock`), `${JSON.stringify(holder)}\n`);

describe("sweepDeadLocks", () => {
  it("removes only the parseable locks of sessions whose holder is gone", async () => {
    lock("20260101-000000-00000001", owner(7));
    lock("20260101-000000-00000002", owner(8));
    lock("20260101-000000-00000003", self);
    lock("not-an-id", owner(7));
    writeFileSync(join(dir, "20260101-000000-00000004.lock"), "garbage");
    writeFileSync(join(dir, "target.txt"), JSON.stringify(owner(7)));
    symlinkSync(join(dir, "target.txt"), join(dir, "20260101-000000-00000005.lock"));
    const removed = await sweepDeadLocks(dir, { self, alive: (o) => o.pid === 8 }, isSessionId);
    expect(removed).toEqual([join(dir, "20260101-000000-00000001.lock")]);
    expect(existsSync(join(dir, "20260101-000000-00000001.lock"))).toBe(false);
    for (const kept of ["20260101-000000-00000002", "20260101-000000-00000003", "not-an-id", "20260101-000000-00000004"]) {
      expect(existsSync(join(dir, `${kept}.lock`))).toBe(true);
    }
    expect(lstatSync(join(dir, "20260101-000000-00000005.lock")).isSymbolicLink()).toBe(true);
    expect(existsSync(join(dir, "target.txt"))).toBe(true);
  });

  it("a dir that cannot be read removes nothing and does not throw", async () => {
    expect(await sweepDeadLocks(join(dir, "missing"), { self, alive: () => false }, isSessionId)).toEqual([]);
  });
});
