import { join } from "node:path";
import type { FileDiff } from "@mm/core";
import { afterEach, describe, expect, it } from "vitest";
import { changeTracker } from "./change-tracker.js";
import { diffsOf, gitRepo, sh, tempDirs, writeFiles } from "./test-support.js";

const dirs = tempDirs();
afterEach(() => dirs.cleanUp());

const THREE_CHANGES = "sed -i 's/a/b/' f.txt && rm g.txt && echo x > h.txt && echo ignored > skip.log";

const expected = (dir: string): FileDiff[] => [
  { path: join(dir, "f.txt"), oldText: "a\n", newText: "b\n" },
  { path: join(dir, "g.txt"), oldText: "g\n", newText: null },
  { path: join(dir, "h.txt"), oldText: null, newText: "x\n" },
];

describe("changeTracker", () => {
  it("uses git inside a work tree: ignored files are not reported", async () => {
    const repo = await gitRepo(await dirs.make(), { "f.txt": "a\n", "g.txt": "g\n", ".gitignore": "*.log\n" });
    expect(await diffsOf(changeTracker(), repo, THREE_CHANGES)).toEqual(expected(repo));
  });

  it("scans outside git, where nothing is ignored", async () => {
    const dir = await dirs.make();
    await writeFiles(dir, { "f.txt": "a\n", "g.txt": "g\n" });
    expect(await diffsOf(changeTracker(), dir, THREE_CHANGES)).toEqual([
      ...expected(dir),
      { path: join(dir, "skip.log"), oldText: null, newText: "ignored\n" },
    ]);
  });

  it("is unavailable outside git over the scan's limits, and inside git is not bound by them", async () => {
    const dir = await dirs.make();
    await writeFiles(dir, { a: "1", b: "2", c: "3" });
    const tracker = changeTracker({ maxFiles: 2 });
    expect((await tracker.begin(dir))._unsafeUnwrapErr().kind).toBe("unavailable");
    const repo = await gitRepo(await dirs.make(), { a: "1", b: "2", c: "3" });
    expect(await diffsOf(tracker, repo, "echo 4 > d")).toEqual([{ path: join(repo, "d"), oldText: null, newText: "4\n" }]);
  });

  it("follows a cwd whose repository is removed, or that becomes a repository of its own", async () => {
    const repo = await gitRepo(await dirs.make(), { "sub/a.txt": "a\n", ".gitignore": "*.log\n" });
    const sub = join(repo, "sub");
    const tracker = changeTracker();
    expect(await diffsOf(tracker, sub, "echo 1 > x.log")).toEqual([]);
    sh(sub, "git init -q");
    expect(await diffsOf(tracker, sub, "echo 2 > y.txt")).toEqual([{ path: join(sub, "y.txt"), oldText: null, newText: "2\n" }]);
    sh(repo, "rm -rf .git sub/.git");
    expect(await diffsOf(tracker, sub, "echo 3 > z.log")).toEqual([{ path: join(sub, "z.log"), oldText: null, newText: "3\n" }]);
  });
});
