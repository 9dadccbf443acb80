import { utimes } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scanChangeTracker } from "./scan-change-tracker.js";
import { diffsOf, sh, tempDirs, writeFiles } from "./test-support.js";

const dirs = tempDirs();
afterEach(() => dirs.cleanUp());

const folder = async (files: Record<string, string | Buffer>): Promise<string> => {
  const dir = await dirs.make();
  await writeFiles(dir, files);
  return dir;
};

describe("scanChangeTracker", () => {
  it("reports a change, a deletion and a creation made by a shell command", async () => {
    const dir = await folder({ "f.txt": "a\n", "g.txt": "g\n", "keep.txt": "k\n" });
    const diffs = await diffsOf(scanChangeTracker(), dir, "sed -i 's/a/b/' f.txt && rm g.txt && echo x > h.txt");
    expect(diffs).toEqual([
      { path: join(dir, "f.txt"), oldText: "a\n", newText: "b\n" },
      { path: join(dir, "g.txt"), oldText: "g\n", newText: null },
      { path: join(dir, "h.txt"), oldText: null, newText: "x\n" },
    ]);
  });

  it("sees a same-size rewrite of a file whose stamp is old", async () => {
    const dir = await folder({ "f.txt": "aaaa\n" });
    await utimes(join(dir, "f.txt"), new Date(2020, 1, 1), new Date(2020, 1, 1));
    const diffs = await diffsOf(scanChangeTracker(), dir, "sed -i 's/a/b/' f.txt");
    expect(diffs).toEqual([{ path: join(dir, "f.txt"), oldText: "aaaa\n", newText: "baaa\n" }]);
  });

  it("does not report a file touched or rewritten with its own content", async () => {
    const dir = await folder({ "a.txt": "a\n", "b.txt": "b\n" });
    expect(await diffsOf(scanChangeTracker(), dir, "touch a.txt && echo b > b.txt")).toEqual([]);
  });

  it("looks into subdirectories but not into .git or node_modules", async () => {
    const dir = await folder({ "src/a.ts": "1\n", "node_modules/m/i.js": "1\n", ".git/HEAD": "ref\n" });
    const diffs = await diffsOf(
      scanChangeTracker(),
      dir,
      "echo 2 > src/a.ts && echo 2 > node_modules/m/i.js && echo x > .git/HEAD && mkdir -p src/new && echo n > src/new/n.ts",
    );
    expect(diffs.map((diff) => diff.path)).toEqual([join(dir, "src/a.ts"), join(dir, "src/new/n.ts")]);
  });

  it("names binary, large and linked files with a note instead of their texts", async () => {
    const dir = await folder({ "img.bin": Buffer.from([1, 0, 2]), "big.txt": "x".repeat(200), "small.txt": "s\n" });
    const diffs = await diffsOf(
      scanChangeTracker({ maxFileBytes: 100 }),
      dir,
      "printf '\\0\\3' > img.bin && rm big.txt && head -c 150 /dev/zero | tr '\\0' y > new.txt && ln -s small.txt link",
    );
    expect(diffs).toEqual([
      { path: join(dir, "big.txt"), oldText: null, newText: null, note: "file deleted, not shown: larger than 100 bytes" },
      { path: join(dir, "img.bin"), oldText: null, newText: null, note: "binary file changed, not shown" },
      { path: join(dir, "link"), oldText: null, newText: null, note: "symbolic link created" },
      { path: join(dir, "new.txt"), oldText: null, newText: null, note: "file created, not shown: larger than 100 bytes" },
    ]);
  });

  it("reports a large file whose stamp moved, and not one left alone", async () => {
    const dir = await folder({ "big.txt": "x".repeat(200), "big2.txt": "y".repeat(200) });
    const diffs = await diffsOf(scanChangeTracker({ maxFileBytes: 100 }), dir, "echo more >> big.txt");
    expect(diffs).toEqual([{ path: join(dir, "big.txt"), oldText: null, newText: null, note: "file changed, not shown: larger than 100 bytes" }]);
  });

  it("names the files past the per-command diff budget, and still compares the ones it can't show", async () => {
    const dir = await folder({ "a.txt": "1234\n", "b.txt": "5678\n" });
    await utimes(join(dir, "b.txt"), new Date(2020, 1, 1), new Date(2020, 1, 1));
    const diffs = await diffsOf(scanChangeTracker({ maxDiffBytes: 4 }), dir, "echo 9 >> a.txt && touch b.txt");
    expect(diffs).toEqual([{ path: join(dir, "a.txt"), oldText: null, newText: null, note: "file changed, not shown: this command's diffs are over 4 bytes" }]);
  });

  it("is unavailable, at once from then on, over the file count", async () => {
    const dir = await folder({ a: "1", b: "2", "c/d": "3", "c/e": "4" });
    const tracker = scanChangeTracker({ maxFiles: 3 });
    const first = (await tracker.begin(dir))._unsafeUnwrapErr();
    expect(first).toEqual({ kind: "unavailable", reason: `${dir} is too large to watch: over 3 files outside git` });
    await writeFiles(dir, {});
    expect((await tracker.begin(dir))._unsafeUnwrapErr()).toEqual(first);
  });

  it("is unavailable over the content a snapshot may hold", async () => {
    const dir = await folder({ a: "12345", b: "67890" });
    const result = await scanChangeTracker({ maxSnapshotBytes: 8 }).begin(dir);
    expect(result._unsafeUnwrapErr()).toEqual({ kind: "unavailable", reason: `${dir} is too large to watch: over 8 bytes of files outside git` });
  });

  it("fails a finish when the command left too many files", async () => {
    const dir = await folder({ a: "1" });
    const snapshot = (await scanChangeTracker({ maxFiles: 3 }).begin(dir))._unsafeUnwrap();
    sh(dir, "touch b c d e");
    expect((await snapshot.finish())._unsafeUnwrapErr()).toEqual({ kind: "failed", reason: `${dir} now holds over 3 files` });
  });
});
