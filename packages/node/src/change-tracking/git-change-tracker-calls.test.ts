/**
 * The git change tracker over several calls on one cwd: what it keeps between calls (the private
 * index, the watches) must never change what a call reports. Each case runs with the watcher and
 * without it (a full `git add` every time).
 */
import { mkdir, rename, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ChangeTracker } from "@mm/core";
import { afterEach, describe, expect, it } from "vitest";
import { IGNORED_DIRECTORY_GONE_NOTE } from "./file-diffs.js";
import { gitChangeTracker } from "./git-change-tracker.js";
import { changed, created, deleted, diffsOf, firstSeen, git, gitRepo, ignoredGone, settled, sh, tempDirs, writeFiles } from "./test-support.js";

const dirs = tempDirs();
afterEach(() => dirs.cleanUp());

describe.each([
  { mode: "watching", watch: true },
  { mode: "without a watcher", watch: false },
])("gitChangeTracker over several calls, $mode", ({ watch }) => {
  const tracker = async (): Promise<ChangeTracker> => gitChangeTracker({ watch, tempDir: await dirs.make("mm-ct-tmp-") });

  it("reports each call's own changes, and nothing for a call that changed nothing", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n", "b.txt": "b\n" });
    const changes = await tracker();
    expect(await diffsOf(changes, repo, "echo a2 > a.txt")).toEqual([changed(join(repo, "a.txt"), "a\n", "a2\n")]);
    expect(await diffsOf(changes, repo, "true")).toEqual([]);
    expect(await diffsOf(changes, repo, "echo b2 > b.txt && echo a3 > a.txt")).toEqual([
      changed(join(repo, "a.txt"), "a2\n", "a3\n"),
      changed(join(repo, "b.txt"), "b\n", "b2\n"),
    ]);
    expect(await diffsOf(changes, repo, "rm a.txt")).toEqual([deleted(join(repo, "a.txt"), "a3\n")]);
    expect(await diffsOf(changes, repo, "echo back > a.txt")).toEqual([created(join(repo, "a.txt"), "back\n")]);
  });

  it("does not charge a call with what changed between calls", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n", "b.txt": "b\n" });
    const changes = await tracker();
    expect(await diffsOf(changes, repo, "true")).toEqual([]);
    await writeFiles(repo, { "a.txt": "edited by the editor\n", "new.txt": "n\n" });
    expect(await diffsOf(changes, repo, "echo b2 > b.txt")).toEqual([changed(join(repo, "b.txt"), "b\n", "b2\n")]);
    expect(await diffsOf(changes, repo, "echo a2 > a.txt")).toEqual([changed(join(repo, "a.txt"), "edited by the editor\n", "a2\n")]);
  });

  it("sees a same-size rewrite in the same second as the snapshot (racy git)", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "1111\n" });
    const changes = await tracker();
    for (const text of ["2222\n", "3333\n", "4444\n"]) {
      expect(await diffsOf(changes, repo, `printf '${text.trim()}\\n' > a.txt`)).toEqual([
        changed(join(repo, "a.txt"), `${String(Number(text[0]) - 1).repeat(4)}\n`, text),
      ]);
    }
  });

  // Without the watcher a step is a full `git add`, which can't tell such a rewrite from no change (as
  // `git status` can't): the watcher names the path, and its entry is compared by content.
  it.runIf(watch)("sees a same-size rewrite that keeps the file's mtime", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "1111\n" });
    const path = join(repo, "a.txt");
    const stamp = new Date(2020, 0, 1);
    await utimes(path, stamp, stamp);
    const changes = await tracker();
    expect(await diffsOf(changes, repo, "true")).toEqual([]);
    const snapshot = (await changes.begin(repo))._unsafeUnwrap();
    await writeFile(path, "2222\n");
    await utimes(path, stamp, stamp);
    expect((await snapshot.finish())._unsafeUnwrap()).toEqual([changed(path, "1111\n", "2222\n")]);
  });

  it("follows new directories, renamed ones, and a directory made again where one was moved away", async () => {
    const repo = await gitRepo(await dirs.make(), { "d/a.txt": "a\n" });
    const changes = await tracker();
    expect(await diffsOf(changes, repo, "mkdir -p n/m && echo x > n/m/x.txt")).toEqual([created(join(repo, "n/m/x.txt"), "x\n")]);
    expect(await diffsOf(changes, repo, "echo y > n/m/x.txt")).toEqual([changed(join(repo, "n/m/x.txt"), "x\n", "y\n")]);
    expect(await diffsOf(changes, repo, "mv d e")).toEqual([deleted(join(repo, "d/a.txt"), "a\n"), created(join(repo, "e/a.txt"), "a\n")]);
    expect(await diffsOf(changes, repo, "echo b > e/a.txt && mkdir d && echo c > d/c.txt")).toEqual([
      created(join(repo, "d/c.txt"), "c\n"),
      changed(join(repo, "e/a.txt"), "a\n", "b\n"),
    ]);
    expect(await diffsOf(changes, repo, "echo c2 > d/c.txt && echo b2 > e/a.txt")).toEqual([
      changed(join(repo, "d/c.txt"), "c\n", "c2\n"),
      changed(join(repo, "e/a.txt"), "b\n", "b2\n"),
    ]);
  });

  it("follows a directory replaced by a file, and a file by a directory", async () => {
    const repo = await gitRepo(await dirs.make(), { "d/a.txt": "a\n", f: "f\n" });
    const changes = await tracker();
    expect(await diffsOf(changes, repo, "rm -r d && echo d > d && rm f && mkdir f && echo g > f/g")).toEqual([
      created(join(repo, "d"), "d\n"),
      deleted(join(repo, "d/a.txt"), "a\n"),
      deleted(join(repo, "f"), "f\n"),
      created(join(repo, "f/g"), "g\n"),
    ]);
    expect(await diffsOf(changes, repo, "echo g2 > f/g && echo d2 > d")).toEqual([
      changed(join(repo, "d"), "d\n", "d2\n"),
      changed(join(repo, "f/g"), "g\n", "g2\n"),
    ]);
  });

  it("follows the excludes: a .gitignore edited by a call, and a new ignored directory", async () => {
    const repo = await gitRepo(await dirs.make(), { ".gitignore": "*.log\nbuild/\n", "a.txt": "a\n" });
    await writeFiles(repo, { "old.log": "o\n" });
    const changes = await tracker();
    expect(await diffsOf(changes, repo, "mkdir build && echo 1 > build/out.js && echo 2 > x.log")).toEqual([]);
    await settled(repo, ["old.log", "x.log"]);
    expect(await diffsOf(changes, repo, "printf 'build/\\n' > .gitignore && echo 3 > y.log && touch x.log")).toEqual([
      changed(join(repo, ".gitignore"), "*.log\nbuild/\n", "build/\n"),
      // Files git ignored until then were there before: old.log, untouched, is no change of this call;
      // x.log, touched, is named, not shown as made. The watcher followed what git ignored, so y.log is
      // known new; without it, it may have been there too.
      firstSeen(join(repo, "x.log")),
      watch ? created(join(repo, "y.log"), "3\n") : firstSeen(join(repo, "y.log")),
    ]);
    expect(await diffsOf(changes, repo, "echo 4 >> x.log && echo 5 > build/out.js")).toEqual([changed(join(repo, "x.log"), "2\n", "2\n4\n")]);
  });

  it("follows the ignored files from call to call: one removed and made again with new ignore rules is new, one made ignored is not", async () => {
    const repo = await gitRepo(await dirs.make(), { ".gitignore": "*.log\n", "a.txt": "a\n" });
    await writeFiles(repo, { "keep.log": "k\n", "logs/old.log": "o\n" });
    const changes = await tracker();
    // An ignored file removed is named (its content was never kept), when the watcher follows them.
    expect(await diffsOf(changes, repo, "rm keep.log && echo n > new.log && mkdir more && echo m > more/m.log")).toEqual(
      watch ? [ignoredGone(join(repo, "keep.log"))] : [],
    );
    await settled(repo, ["logs/old.log", "new.log", "more/m.log"]);
    expect(await diffsOf(changes, repo, "printf 'x\\n' > .gitignore && echo again > keep.log && touch new.log")).toEqual([
      changed(join(repo, ".gitignore"), "*.log\n", "x\n"),
      watch ? created(join(repo, "keep.log"), "again\n") : firstSeen(join(repo, "keep.log")),
      firstSeen(join(repo, "new.log")),
    ]);
  });

  it("names an ignored file renamed to a name git sees: the new one made, the old one gone without its content", async () => {
    const repo = await gitRepo(await dirs.make(), { ".gitignore": "*.db\nlogs/\n", "a.txt": "a\n" });
    await writeFiles(repo, { "local.db": "data\n", "logs/x/old.txt": "o\n" });
    const changes = await tracker();
    expect(await diffsOf(changes, repo, "true")).toEqual([]);
    expect(await diffsOf(changes, repo, "mv local.db backup.sqlite && rm -r logs")).toEqual([
      created(join(repo, "backup.sqlite"), "data\n"),
      ...(watch ? [ignoredGone(join(repo, "local.db")), { ...ignoredGone(join(repo, "logs")), note: IGNORED_DIRECTORY_GONE_NOTE }] : []),
    ]);
  });

  it("reports files committed by the command, and follows the index and HEAD it moved", async () => {
    const repo = await gitRepo(await dirs.make(), { ".gitignore": "*.log\n", "a.txt": "a\n" });
    await writeFiles(repo, { "kept.log": "k\n" });
    const changes = await tracker();
    const commit = "git -c user.name=t -c user.email=t@t -c commit.gpgsign=false commit -qam";
    expect(await diffsOf(changes, repo, `echo a2 > a.txt && ${commit} two`)).toEqual([changed(join(repo, "a.txt"), "a\n", "a2\n")]);
    expect(await diffsOf(changes, repo, `git add -f kept.log && ${commit} three && git checkout -q HEAD~2 -- a.txt`)).toEqual([
      changed(join(repo, "a.txt"), "a2\n", "a\n"),
    ]);
    expect(await diffsOf(changes, repo, "echo k2 > kept.log")).toEqual([changed(join(repo, "kept.log"), "k\n", "k2\n")]);
    expect(git(repo, "log", "--oneline").split("\n").filter(Boolean)).toHaveLength(3);
  });

  it("fails a call whose command removed the repository, and the next call is not inside git", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n" });
    const changes = await tracker();
    expect(await diffsOf(changes, repo, "echo b > a.txt")).toEqual([changed(join(repo, "a.txt"), "a\n", "b\n")]);
    const snapshot = (await changes.begin(repo))._unsafeUnwrap();
    sh(repo, "rm -rf .git && echo c > a.txt");
    expect((await snapshot.finish())._unsafeUnwrapErr().kind).toBe("failed");
    expect((await changes.begin(repo))._unsafeUnwrapErr()).toEqual({ kind: "unavailable", reason: `${repo} is not inside a git work tree` });
  });

  it("follows a cwd removed and made again between calls", async () => {
    const repo = await gitRepo(await dirs.make(), { "sub/a.txt": "a\n" });
    const sub = join(repo, "sub");
    const changes = await tracker();
    expect(await diffsOf(changes, sub, "echo b > a.txt")).toEqual([changed(join(sub, "a.txt"), "a\n", "b\n")]);
    await rm(sub, { recursive: true });
    await writeFiles(repo, { "sub/other.txt": "o\n" });
    expect(await diffsOf(changes, sub, "echo o2 > other.txt")).toEqual([changed(join(sub, "other.txt"), "o\n", "o2\n")]);
    await rename(sub, join(repo, "moved"));
    await writeFiles(repo, { "sub/third.txt": "t\n" });
    expect(await diffsOf(changes, sub, "echo t2 > third.txt")).toEqual([changed(join(sub, "third.txt"), "t\n", "t2\n")]);
  });

  it("reports a repository of its own under the cwd as a submodule when its HEAD moves", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n" });
    await mkdir(join(repo, "lib"));
    await gitRepo(join(repo, "lib"), { "l.txt": "l\n" });
    const changes = await tracker();
    expect(await diffsOf(changes, repo, "echo l2 > lib/l.txt")).toEqual([]);
    const commit = "git -c user.name=t -c user.email=t@t -c commit.gpgsign=false commit -qam";
    expect(await diffsOf(changes, repo, `cd lib && ${commit} two`)).toEqual([
      { path: join(repo, "lib"), oldText: null, newText: null, note: "submodule changed" },
    ]);
  });
});
