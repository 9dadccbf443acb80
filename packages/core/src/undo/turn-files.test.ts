import { describe, expect, it } from "vitest";
import { inMemoryFileSystem } from "../testing/in-memory-file-system.js";
import { inMemoryUndoStore } from "../testing/in-memory-undo-store.js";
import { DEFAULT_UNDO_LIMITS } from "../ports/undo-store.js";
import { turnFiles } from "./turn-files.js";

describe("turnFiles", () => {
  it("records a hidden path a command changed without reading it: named, not restorable, no hash of it kept", async () => {
    const fs = inMemoryFileSystem({ "/w/.env": "SECRET=1\n", "/w/a.txt": "b\n" });
    const store = inMemoryUndoStore(fs);
    const read: string[] = [];
    const watched = { ...store, read: (path: string, max: number) => (read.push(path), store.read(path, max)) };
    const place = { cwd: "/w", sessionId: "s" };
    const files = await turnFiles({ store: watched, fs, limits: DEFAULT_UNDO_LIMITS, warn: () => undefined }, place, [{ role: "system", text: "sys" }], "go");
    await files.afterCall([], {
      status: "completed",
      output: "",
      diffs: [
        { path: "/w/.env", oldText: null, newText: null, note: "file changed, not shown: a hidden path (content never read)" },
        { path: "/w/a.txt", oldText: "a\n", newText: "b\n" },
      ],
      before: (path) => (path === "/w/a.txt" ? { bytes: new TextEncoder().encode("a\n") } : undefined),
      hidden: (path) => path === "/w/.env",
    });
    expect(read).toEqual(["/w/a.txt"]);
    const log = (await store.loadLog(place))._unsafeUnwrap();
    const env = log.turns[0]?.files.find((file) => file.path === "/w/.env");
    expect(env).toEqual({
      path: "/w/.env",
      before: { kind: "unknown", reason: "a hidden path: /undo never reads nor keeps it" },
      after: { kind: "unknown", reason: "a hidden path: /undo never reads nor keeps it" },
    });
  });
});

describe("turnFiles and a file older than the turn", () => {
  const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
  /** A turn starting at 1000 over `files`, whose reads say each file was born at `born[path]`. */
  const recordCall = async (files: Record<string, string>, born: Record<string, number>, diffs: { path: string; before: string | null | undefined }[]) => {
    const fs = inMemoryFileSystem(files);
    const store = inMemoryUndoStore(fs);
    const dated = {
      ...store,
      read: async (path: string, max: number) => {
        const now = await store.read(path, max);
        return now.kind === "bytes" && born[path] !== undefined ? { ...now, born: born[path] } : now;
      },
    };
    const place = { cwd: "/w", sessionId: "s" };
    const turn = await turnFiles(
      { store: dated, fs, limits: DEFAULT_UNDO_LIMITS, warn: () => undefined, now: () => 1000 },
      place,
      [{ role: "system", text: "sys" }],
      "go",
    );
    const befores = new Map(diffs.map((d) => [d.path, d.before]));
    await turn.afterCall([], {
      status: "completed",
      output: "",
      diffs: diffs.map((d) => ({ path: d.path, oldText: d.before ?? null, newText: files[d.path] ?? null })),
      before: (path) => {
        const text = befores.get(path);
        return text === undefined ? undefined : text === null ? null : { bytes: enc(text) };
      },
    });
    const log = (await store.loadLog(place))._unsafeUnwrap();
    return (path: string) => log.turns[0]?.files.find((file) => file.path === path)?.before;
  };

  it("records a new file whose inode predates the turn as not restorable (moved in from where the tracker does not look)", async () => {
    const before = await recordCall({ "/w/release.bin": "build\n" }, { "/w/release.bin": 500 }, [{ path: "/w/release.bin", before: null }]);
    expect(before("/w/release.bin")).toMatchObject({ kind: "unknown", reason: expect.stringContaining("there before the turn under another name") });
  });

  it("records a new file born during the turn as made", async () => {
    const before = await recordCall({ "/w/made.txt": "new\n" }, { "/w/made.txt": 1500 }, [{ path: "/w/made.txt", before: null }]);
    expect(before("/w/made.txt")).toEqual({ kind: "absent" });
  });

  it("records the new name of a followed file's rename as made: its content is the old name's state before", async () => {
    const before = await recordCall({ "/w/b.txt": "a\n" }, { "/w/b.txt": 500 }, [
      { path: "/w/a.txt", before: "a\n" },
      { path: "/w/b.txt", before: null },
    ]);
    expect(before("/w/b.txt")).toEqual({ kind: "absent" });
  });
});
