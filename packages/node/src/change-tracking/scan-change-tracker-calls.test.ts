/**
 * The scan change tracker (outside git) over several calls on one cwd: what it keeps between calls
 * must never change what a call reports. Each case runs with the watcher and without it.
 */
import { rename, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scanChangeTracker } from "./scan-change-tracker.js";
import { changed, created, deleted, diffsOf, sh, tempDirs, writeFiles } from "./test-support.js";

const dirs = tempDirs();
afterEach(() => dirs.cleanUp());

const folder = async (files: Record<string, string>): Promise<string> => {
  const dir = await dirs.make();
  await writeFiles(dir, files);
  return dir;
};

describe.each([
  { mode: "watching", watch: true },
  { mode: "without a watcher", watch: false },
])("scanChangeTracker over several calls, $mode", ({ watch }) => {
  it("reports each call's own changes, and not what changed between calls", async () => {
    const dir = await folder({ "a.txt": "a\n", "b.txt": "b\n" });
    const changes = scanChangeTracker({ watch });
    expect(await diffsOf(changes, dir, "echo a2 > a.txt")).toEqual([changed(join(dir, "a.txt"), "a\n", "a2\n")]);
    expect(await diffsOf(changes, dir, "true")).toEqual([]);
    await writeFiles(dir, { "b.txt": "edited by the editor\n", "new.txt": "n\n" });
    expect(await diffsOf(changes, dir, "rm a.txt && echo n2 > new.txt")).toEqual([
      deleted(join(dir, "a.txt"), "a2\n"),
      changed(join(dir, "new.txt"), "n\n", "n2\n"),
    ]);
    expect(await diffsOf(changes, dir, "echo b2 > b.txt")).toEqual([changed(join(dir, "b.txt"), "edited by the editor\n", "b2\n")]);
  });

  it("sees a same-size rewrite that keeps the file's mtime", async () => {
    const dir = await folder({ "a.txt": "1111\n" });
    const path = join(dir, "a.txt");
    const stamp = new Date(2020, 0, 1);
    await utimes(path, stamp, stamp);
    const changes = scanChangeTracker({ watch });
    expect(await diffsOf(changes, dir, "true")).toEqual([]);
    const snapshot = (await changes.begin(dir))._unsafeUnwrap();
    await writeFile(path, "2222\n");
    await utimes(path, stamp, stamp);
    expect((await snapshot.finish())._unsafeUnwrap()).toEqual([changed(path, "1111\n", "2222\n")]);
  });

  it("follows new, renamed and replaced directories, and leaves node_modules out", async () => {
    const dir = await folder({ "d/a.txt": "a\n" });
    const changes = scanChangeTracker({ watch });
    expect(await diffsOf(changes, dir, "mkdir -p n/m node_modules/x && echo x > n/m/x.txt && echo i > node_modules/x/i.js")).toEqual([
      created(join(dir, "n/m/x.txt"), "x\n"),
    ]);
    expect(await diffsOf(changes, dir, "echo y > n/m/x.txt && echo j > node_modules/x/i.js")).toEqual([changed(join(dir, "n/m/x.txt"), "x\n", "y\n")]);
    expect(await diffsOf(changes, dir, "mv d e")).toEqual([deleted(join(dir, "d/a.txt"), "a\n"), created(join(dir, "e/a.txt"), "a\n")]);
    expect(await diffsOf(changes, dir, "echo b > e/a.txt && mkdir d && echo c > d/c.txt")).toEqual([
      created(join(dir, "d/c.txt"), "c\n"),
      changed(join(dir, "e/a.txt"), "a\n", "b\n"),
    ]);
    expect(await diffsOf(changes, dir, "rm -r d && mkdir d && echo c2 > d/c.txt")).toEqual([changed(join(dir, "d/c.txt"), "c\n", "c2\n")]);
    expect(await diffsOf(changes, dir, "echo c3 > d/c.txt")).toEqual([changed(join(dir, "d/c.txt"), "c2\n", "c3\n")]);
  });

  it("follows a cwd removed and made again between calls", async () => {
    const root = await dirs.make();
    const dir = join(root, "work");
    await writeFiles(dir, { "a.txt": "a\n" });
    const changes = scanChangeTracker({ watch });
    expect(await diffsOf(changes, dir, "echo b > a.txt")).toEqual([changed(join(dir, "a.txt"), "a\n", "b\n")]);
    await rm(dir, { recursive: true });
    await writeFiles(dir, { "other.txt": "o\n" });
    expect(await diffsOf(changes, dir, "echo o2 > other.txt")).toEqual([changed(join(dir, "other.txt"), "o\n", "o2\n")]);
    await rename(dir, join(root, "moved"));
    await writeFiles(dir, { "third.txt": "t\n" });
    expect(await diffsOf(changes, dir, "echo t2 > third.txt")).toEqual([changed(join(dir, "third.txt"), "t\n", "t2\n")]);
  });

  it("fails a call that left too many files, and refuses the cwd from then on", async () => {
    const dir = await folder({ a: "1" });
    const changes = scanChangeTracker({ watch, maxFiles: 3 });
    expect(await diffsOf(changes, dir, "touch b")).toEqual([created(join(dir, "b"), "")]);
    const snapshot = (await changes.begin(dir))._unsafeUnwrap();
    sh(dir, "mkdir sub && touch sub/c sub/d");
    expect((await snapshot.finish())._unsafeUnwrapErr()).toEqual({ kind: "failed", reason: `${dir} now holds over 3 files` });
    expect((await changes.begin(dir))._unsafeUnwrapErr()).toEqual({ kind: "unavailable", reason: `${dir} is too large to watch: over 3 files outside git` });
  });
});
