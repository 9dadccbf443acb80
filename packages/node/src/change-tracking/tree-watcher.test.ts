import { mkdir, rm, writeFile } from "node:fs/promises";
import { statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDirs } from "./test-support.js";
import { treeWatcher, type TreeWatcher } from "./tree-watcher.js";

const dirs = tempDirs();
const open: TreeWatcher[] = [];
afterEach(async () => {
  for (const watcher of open.splice(0)) watcher.close();
  await dirs.cleanUp();
});

const watching = async (subdirs: string[], maxEvents?: number): Promise<{ root: string; watcher: TreeWatcher }> => {
  const root = await dirs.make();
  for (const dir of subdirs) await mkdir(join(root, dir), { recursive: true });
  const watcher = treeWatcher(root, { maxDirectories: 10, ...(maxEvents === undefined ? {} : { maxEvents }) });
  open.push(watcher);
  expect(watcher.add(["", ...subdirs])).toBe(true);
  return { root, watcher };
};

describe("treeWatcher", () => {
  it("names the paths changed before `settle`, relative to the root, once", async () => {
    const { root, watcher } = await watching(["src"]);
    await writeFile(join(root, "a.txt"), "a");
    await writeFile(join(root, "src", "b.ts"), "b");
    await watcher.settle();
    const taken = watcher.take();
    expect([...taken.paths].sort()).toEqual(["a.txt", "src/b.ts"]);
    expect(taken.complete).toBe(true);
    await watcher.settle();
    expect([...watcher.take().paths]).toEqual([]);
  });

  it("says it is not complete past its event budget", async () => {
    const { root, watcher } = await watching([], 5);
    for (let i = 0; i < 6; i++) await writeFile(join(root, `f${i}`), "x");
    await watcher.settle();
    expect(watcher.take().complete).toBe(false);
    await writeFile(join(root, "g"), "x");
    await watcher.settle();
    expect(watcher.take()).toMatchObject({ complete: true });
  });

  it("stops watching under a directory, and names a watched directory removed as suspect", async () => {
    const { root, watcher } = await watching(["a", "a/b", "c"]);
    watcher.removeUnder("a");
    expect(watcher.size()).toBe(2);
    await writeFile(join(root, "a", "b", "x"), "x");
    const ino = statSync(join(root, "c")).ino;
    expect(watcher.watches("c", ino)).toBe(true);
    await rm(join(root, "c"), { recursive: true });
    await watcher.settle();
    const taken = watcher.take();
    expect([...taken.paths]).toContain("c");
    expect([...taken.paths]).not.toContain("a/b/x");
    expect([...taken.suspects]).toEqual(["c"]);
  });

  it("refuses more directories than its limit", async () => {
    const root = await dirs.make();
    const watcher = treeWatcher(root, { maxDirectories: 1 });
    open.push(watcher);
    await mkdir(join(root, "a"));
    expect(watcher.add(["", "a"])).toBe(false);
  });
});
