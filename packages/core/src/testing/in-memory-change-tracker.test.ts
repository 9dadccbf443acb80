import { describe, expect, it } from "vitest";
import { inMemoryChangeTracker } from "./in-memory-change-tracker.js";
import { inMemoryFileSystem } from "./in-memory-file-system.js";

const finishOf = async (tracker: ReturnType<typeof inMemoryChangeTracker>, cwd: string, act: () => void) => {
  const snapshot = (await tracker.begin(cwd))._unsafeUnwrap();
  act();
  return (await snapshot.finish())._unsafeUnwrap();
};

describe("inMemoryChangeTracker", () => {
  it("reports a change, a deletion and a creation under the cwd, sorted by path", async () => {
    const fs = inMemoryFileSystem({ "/w/f.txt": "a\n", "/w/g.txt": "g\n", "/w/same.txt": "s\n" });
    const tracker = inMemoryChangeTracker(fs);
    const diffs = await finishOf(tracker, "/w", () => {
      fs.files.set("/w/f.txt", "b\n");
      fs.files.delete("/w/g.txt");
      fs.files.set("/w/h.txt", "x\n");
      fs.files.set("/w/same.txt", "s\n");
    });
    expect(diffs).toEqual([
      { path: "/w/f.txt", oldText: "a\n", newText: "b\n" },
      { path: "/w/g.txt", oldText: "g\n", newText: null },
      { path: "/w/h.txt", oldText: null, newText: "x\n" },
    ]);
    expect(tracker.begun).toEqual(["/w"]);
  });

  it("ignores files outside the cwd, including siblings sharing its prefix", async () => {
    const fs = inMemoryFileSystem({ "/w/sub/a": "1", "/w/subway/b": "1", "/w/c": "1" });
    const diffs = await finishOf(inMemoryChangeTracker(fs), "/w/sub", () => {
      fs.files.set("/w/sub/a", "2");
      fs.files.set("/w/subway/b", "2");
      fs.files.set("/w/c", "2");
    });
    expect(diffs.map((diff) => diff.path)).toEqual(["/w/sub/a"]);
  });

  it("names binary and large files with a note instead of their texts", async () => {
    const fs = inMemoryFileSystem({ "/w/bin": "a\u0000b" });
    const diffs = await finishOf(inMemoryChangeTracker(fs, { maxFileBytes: 4 }), "/w", () => {
      fs.files.set("/w/bin", "c\u0000d");
      fs.files.set("/w/big", "12345");
    });
    expect(diffs).toEqual([
      { path: "/w/big", oldText: null, newText: null, note: "file created, not shown: larger than 4 bytes" },
      { path: "/w/bin", oldText: null, newText: null, note: "binary file changed, not shown" },
    ]);
  });

  it("fails unavailable when told to", async () => {
    const result = await inMemoryChangeTracker(inMemoryFileSystem(), { unavailable: "too large to watch" }).begin("/w");
    expect(result._unsafeUnwrapErr()).toEqual({ kind: "unavailable", reason: "too large to watch" });
  });
});
