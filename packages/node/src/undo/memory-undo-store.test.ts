import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memoryUndoStore } from "./memory-undo-store.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("memoryUndoStore", () => {
  it("keeps blobs and the log in memory, drops what the log no longer names, and restores on disk without following a link", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "mm-memory-undo-"));
    dirs.push(cwd);
    const store = memoryUndoStore();
    const place = { cwd, sessionId: "20261202-010000-0123abcd" };
    const hash = (await store.putBlob(place, new TextEncoder().encode("before\n")))._unsafeUnwrap();
    const file = join(cwd, "a.txt");
    await store.saveLog(place, {
      turns: [{ at: 1, question: "q", files: [{ path: file, before: { kind: "blob", hash, size: 7 }, after: { kind: "absent" } }] }],
    });
    expect((await store.loadLog(place))._unsafeUnwrap().turns).toHaveLength(1);
    const bytes = (await store.getBlob(place, hash))._unsafeUnwrap();
    (await store.restore(file, bytes))._unsafeUnwrap();
    expect(readFileSync(file, "utf8")).toBe("before\n");
    await store.saveLog(place, { turns: [] });
    expect((await store.getBlob(place, hash)).isErr()).toBe(true);
    expect((await store.loadLog(place))._unsafeUnwrap()).toEqual({ turns: [] });
    const outside = join(cwd, "outside.txt");
    writeFileSync(outside, "theirs\n");
    symlinkSync(outside, join(cwd, "link.txt"));
    expect((await store.read(join(cwd, "link.txt"), 1024)).kind).toBe("unreadable");
    expect(store.owns(cwd, join(cwd, ".mm/sessions/x.json"))).toBe(false);
  });
});
