import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { entryOffsets, indexDifferences, SIZE_AT } from "./index-entries.js";
import { git, gitRepo, sh, tempDirs } from "./test-support.js";

const dirs = tempDirs();
afterEach(() => dirs.cleanUp());

const indexAt = (repo: string, file: string): Buffer => readFileSync(join(repo, file));
const withIndex = (repo: string, file: string, command: string): void =>
  void execFileSync("bash", ["-c", command], { cwd: repo, env: { ...process.env, GIT_INDEX_FILE: join(repo, file) } });

describe.each([2, 3, 4])("indexDifferences, index version %i", (version) => {
  it("names what changed between two indexes, under the paths asked for, as git diff-index would", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n", "d/b.txt": "b\n", "d/c.txt": "c\n", "e.txt": "e\n" });
    sh(repo, `cp .git/index before && GIT_INDEX_FILE=before git update-index --index-version ${version}`);
    if (version === 3) withIndex(repo, "before", "git update-index --skip-worktree e.txt");
    withIndex(repo, "after", `cp before after && echo a2 > a.txt && rm d/b.txt && echo n > d/n.txt && ln -s a.txt l && git add -A -- a.txt d l`);
    const before = indexAt(repo, "before");
    const after = indexAt(repo, "after");
    const zero = "0".repeat(40);
    const id = (path: string) => git(repo, "hash-object", path).trim();
    const expected = [
      { path: "a.txt", oldMode: "100644", newMode: "100644", oldId: git(repo, "rev-parse", "HEAD:a.txt").trim(), newId: id("a.txt") },
      { path: "d/b.txt", oldMode: "100644", newMode: "000000", oldId: git(repo, "rev-parse", "HEAD:d/b.txt").trim(), newId: zero },
      { path: "d/n.txt", oldMode: "000000", newMode: "100644", oldId: zero, newId: id("d/n.txt") },
      {
        path: "l",
        oldMode: "000000",
        newMode: "120000",
        oldId: zero,
        newId: execFileSync("git", ["hash-object", "--stdin"], { input: "a.txt" }).toString().trim(),
      },
    ];
    expect(indexDifferences(before, after, 20, [""])).toEqual(expected);
    expect(indexDifferences(before, after, 20, ["d", "l"])).toEqual(expected.slice(1));
    expect(indexDifferences(before, after, 20, ["a.txt", "e.txt"])).toEqual(expected.slice(0, 1));
    expect(indexDifferences(undefined, after, 20, ["d"]).map((e) => e.path)).toEqual(["d/c.txt", "d/n.txt"]);
  });
});

describe("entryOffsets", () => {
  it("finds the entries of exactly the paths asked for, where their size is kept", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n", "ab.txt": "ab\n", "b/c.txt": "ccc\n" });
    const bytes = indexAt(repo, ".git/index");
    const offsets = entryOffsets(bytes, 20, ["ab.txt", "b/c.txt", "b"]);
    expect(offsets.map((offset) => bytes.readUInt32BE(offset + SIZE_AT))).toEqual([3, 4]);
  });
});
