import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChangeTracker } from "@mm/core";
import { afterEach, describe, expect, it } from "vitest";
import { findWorkTree, gitChangeTracker } from "./git-change-tracker.js";
import { diffsOf, git, gitRepo, sh, tempDirs, writeFiles } from "./test-support.js";
import type { ChangeTrackingOptions } from "./limits.js";

const dirs = tempDirs();
afterEach(() => dirs.cleanUp());

/** A tracker whose temp index directories land in a directory of their own, to prove none is left. */
const tracker = async (options: ChangeTrackingOptions = {}): Promise<{ tracker: ChangeTracker; tempDir: string }> => {
  const tempDir = await dirs.make("mm-ct-tmp-");
  return { tracker: gitChangeTracker({ ...options, tempDir }), tempDir };
};

describe("gitChangeTracker", () => {
  it("reports a change, a deletion and a creation made by a shell command", async () => {
    const repo = await gitRepo(await dirs.make(), { "f.txt": "a\n", "g.txt": "g\n", "keep.txt": "k\n" });
    const { tracker: changes, tempDir } = await tracker();
    const diffs = await diffsOf(changes, repo, "sed -i 's/a/b/' f.txt && rm g.txt && echo x > h.txt");
    expect(diffs).toEqual([
      { path: join(repo, "f.txt"), oldText: "a\n", newText: "b\n" },
      { path: join(repo, "g.txt"), oldText: "g\n", newText: null },
      { path: join(repo, "h.txt"), oldText: null, newText: "x\n" },
    ]);
    expect(await readdir(tempDir)).toEqual([]);
  });

  it("leaves the user's index, refs and status as they were, and makes no commit", async () => {
    const repo = await gitRepo(await dirs.make(), { "f.txt": "a\n", "g.txt": "g\n", "staged.txt": "s\n" });
    await writeFiles(repo, { "staged.txt": "staged change\n", "untracked.txt": "u\n" });
    git(repo, "add", "staged.txt");
    const index = await readFile(join(repo, ".git", "index"));
    const refs = git(repo, "for-each-ref") + git(repo, "rev-parse", "HEAD") + git(repo, "log", "--all", "--oneline");
    const status = git(repo, "status", "--porcelain");
    const { tracker: changes } = await tracker();
    const snapshot = (await changes.begin(repo))._unsafeUnwrap();
    expect(await readFile(join(repo, ".git", "index"))).toEqual(index);
    sh(repo, "echo more >> f.txt");
    (await snapshot.finish())._unsafeUnwrap();
    expect(await readFile(join(repo, ".git", "index"))).toEqual(index);
    expect(git(repo, "for-each-ref") + git(repo, "rev-parse", "HEAD") + git(repo, "log", "--all", "--oneline")).toBe(refs);
    const after = git(repo, "status", "--porcelain").split("\n");
    expect(after.filter((line) => line !== " M f.txt")).toEqual(status.split("\n"));
    expect(after).toContain(" M f.txt");
  });

  it("tracks untracked files that are not ignored, and not the ignored ones", async () => {
    const repo = await gitRepo(await dirs.make(), { ".gitignore": "*.log\nbuild/\n" });
    await writeFiles(repo, { "notes.md": "one\n", "old.log": "x\n" });
    const { tracker: changes } = await tracker();
    const diffs = await diffsOf(changes, repo, "echo two >> notes.md && echo y >> old.log && mkdir -p build && echo z > build/out.js && echo n > new.log");
    expect(diffs).toEqual([{ path: join(repo, "notes.md"), oldText: "one\n", newText: "one\ntwo\n" }]);
  });

  it("reports only files under a cwd that is a subdirectory of the repository, with their full paths", async () => {
    const repo = await gitRepo(await dirs.make(), { "top.txt": "t\n", "sub/a.txt": "a\n", "subway/b.txt": "b\n" });
    const { tracker: changes } = await tracker();
    const diffs = await diffsOf(
      changes,
      join(repo, "sub"),
      "echo 1 >> a.txt && echo 2 >> ../top.txt && echo 3 >> ../subway/b.txt && mkdir d && echo c > d/c.txt",
    );
    expect(diffs).toEqual([
      { path: join(repo, "sub", "a.txt"), oldText: "a\n", newText: "a\n1\n" },
      { path: join(repo, "sub", "d", "c.txt"), oldText: null, newText: "c\n" },
    ]);
  });

  it("names binary, large and linked files with a note instead of their texts", async () => {
    const repo = await gitRepo(await dirs.make(), { "img.bin": Buffer.from([1, 0, 2]), "big.txt": "x".repeat(200), "small.txt": "s\n" });
    const { tracker: changes } = await tracker({ maxFileBytes: 100 });
    const diffs = await diffsOf(
      changes,
      repo,
      "printf '\\0\\3' > img.bin && rm big.txt && head -c 150 /dev/zero | tr '\\0' y > new.txt && ln -s small.txt link",
    );
    expect(diffs).toEqual([
      { path: join(repo, "big.txt"), oldText: null, newText: null, note: "file deleted, not shown: larger than 100 bytes" },
      { path: join(repo, "img.bin"), oldText: null, newText: null, note: "binary file changed, not shown" },
      { path: join(repo, "link"), oldText: null, newText: null, note: "symbolic link created" },
      { path: join(repo, "new.txt"), oldText: null, newText: null, note: "file created, not shown: larger than 100 bytes" },
    ]);
  });

  it("keeps texts within the per-command diff budget and names the files past it", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "1234\n", "b.txt": "5678\n" });
    const { tracker: changes } = await tracker({ maxDiffBytes: 12 });
    const diffs = await diffsOf(changes, repo, "echo 9 >> a.txt && echo 9 >> b.txt");
    expect(diffs).toEqual([
      { path: join(repo, "a.txt"), oldText: "1234\n", newText: "1234\n9\n" },
      { path: join(repo, "b.txt"), oldText: null, newText: null, note: "file changed, not shown: this command's diffs are over 12 bytes" },
    ]);
  });

  it("does not report a file rewritten with its own content, nor a mode change", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n", "s.sh": "echo\n" });
    const { tracker: changes } = await tracker();
    expect(await diffsOf(changes, repo, "echo a > a.txt && chmod +x s.sh")).toEqual([]);
  });

  it("reports the files of a cwd the command removed as deleted", async () => {
    const repo = await gitRepo(await dirs.make(), { "sub/a.txt": "a\n", "other.txt": "o\n" });
    await writeFiles(repo, { "sub/untracked.txt": "u\n" });
    const { tracker: changes } = await tracker();
    const diffs = await diffsOf(changes, join(repo, "sub"), "cd .. && rm -rf sub");
    expect(diffs).toEqual([
      { path: join(repo, "sub", "a.txt"), oldText: "a\n", newText: null },
      { path: join(repo, "sub", "untracked.txt"), oldText: "u\n", newText: null },
    ]);
  });

  it("works while the user's index holds a conflicted merge outside the cwd", async () => {
    const repo = await gitRepo(await dirs.make(), { "sub/a.txt": "a\n", "c.txt": "1\n" });
    git(repo, "checkout", "-q", "-b", "other");
    sh(repo, "echo 2 > c.txt");
    git(repo, "commit", "-q", "-am", "2");
    git(repo, "checkout", "-q", "-");
    sh(repo, "echo 3 > c.txt");
    git(repo, "commit", "-q", "-am", "3");
    expect(() => git(repo, "merge", "other")).toThrow();
    const index = await readFile(join(repo, ".git", "index"));
    const { tracker: changes } = await tracker();
    const diffs = await diffsOf(changes, join(repo, "sub"), "echo b > a.txt");
    expect(diffs).toEqual([{ path: join(repo, "sub", "a.txt"), oldText: "a\n", newText: "b\n" }]);
    expect(await readFile(join(repo, ".git", "index"))).toEqual(index);
  });

  it("is unavailable, at once from then on, when a snapshot takes over the budget", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n" });
    const { tracker: changes, tempDir } = await tracker({ beginBudgetMs: 1 });
    const first = (await changes.begin(repo))._unsafeUnwrapErr();
    expect(first.kind).toBe("unavailable");
    expect(first.reason).toMatch(/too large to watch: a git snapshot takes over 1 ms \(1 file in the index\)/);
    const started = Date.now();
    expect((await changes.begin(repo))._unsafeUnwrapErr()).toEqual(first);
    expect(Date.now() - started).toBeLessThan(50);
    expect(await readdir(tempDir)).toEqual([]);
  });

  it("takes names literally: spaces, globs and non-ASCII in the cwd and in file names", async () => {
    const repo = await gitRepo(await dirs.make(), { "a [b]*/é x.txt": "1\n", "a b/other.txt": "o\n" });
    const cwd = join(repo, "a [b]*");
    const { tracker: changes } = await tracker();
    const diffs = await diffsOf(changes, cwd, "echo 2 > 'é x.txt' && echo 3 > '../a b/other.txt' && echo n > '*.md'");
    expect(diffs).toEqual([
      { path: join(cwd, "*.md"), oldText: null, newText: "n\n" },
      { path: join(cwd, "é x.txt"), oldText: "1\n", newText: "2\n" },
    ]);
  });

  it("works in a repository with no commit and no index yet", async () => {
    const repo = await dirs.make();
    git(repo, "init", "-q");
    await writeFiles(repo, { "a.txt": "a\n" });
    const { tracker: changes } = await tracker();
    const diffs = await diffsOf(changes, repo, "echo b > a.txt && echo c > c.txt");
    expect(diffs).toEqual([
      { path: join(repo, "a.txt"), oldText: "a\n", newText: "b\n" },
      { path: join(repo, "c.txt"), oldText: null, newText: "c\n" },
    ]);
    expect(git(repo, "status", "--porcelain")).toBe("?? a.txt\n?? c.txt\n");
  });

  it("is unavailable outside a work tree", async () => {
    const dir = await dirs.make();
    expect(await findWorkTree(dir)).toBeUndefined();
    expect((await gitChangeTracker().begin(dir))._unsafeUnwrapErr()).toEqual({ kind: "unavailable", reason: `${dir} is not inside a git work tree` });
  });

  it("fails a second finish of the same snapshot", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n" });
    const { tracker: changes } = await tracker();
    const snapshot = (await changes.begin(repo))._unsafeUnwrap();
    (await snapshot.finish())._unsafeUnwrap();
    expect((await snapshot.finish())._unsafeUnwrapErr().kind).toBe("failed");
  });
});
