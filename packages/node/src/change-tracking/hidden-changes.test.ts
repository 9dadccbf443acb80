import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { changeTracker } from "./change-tracker.js";
import { hiddenNote, MOVED_HIDDEN_NOTE } from "./hidden-changes.js";
import { git, gitRepo, sh, tempDirs, writeFiles } from "./test-support.js";

const dirs = tempDirs();
afterEach(() => dirs.cleanUp());

const SECRET = "API_TOKEN=hunter2-secret\n";

/** Every object the repository holds, its content included: where a secret would show. */
const allObjects = (repo: string): string => {
  const names = git(repo, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)");
  return execFileSync("git", ["cat-file", "--batch"], { cwd: repo, input: names, encoding: "latin1" });
};

const hiddenFor = (cwd: string): readonly string[] => [join(cwd, ".env"), join(cwd, "secrets")];

describe("changeTracker with hidden paths", () => {
  for (const inGit of [true, false]) {
    it(`never stages, reads or shows a hidden path, and names one that changed, ${inGit ? "in git (not ignored)" : "outside git"}`, async () => {
      const dir = await dirs.make();
      if (inGit) await gitRepo(dir, { "a.txt": "a\n" });
      else await writeFiles(dir, { "a.txt": "a\n" });
      await writeFiles(dir, { ".env": SECRET, "secrets/key": SECRET });
      const tracker = changeTracker({ hidden: hiddenFor });
      for (const [command, changes] of [
        ["echo b > a.txt", ["a.txt"]],
        ["echo more >> .env && echo x > secrets/new && echo c > a.txt", [".env", "a.txt", "secrets"]],
        ["rm .env", [".env"]],
      ] as const) {
        const snapshot = (await tracker.begin(dir))._unsafeUnwrap();
        sh(dir, command);
        const diffs = (await snapshot.finish())._unsafeUnwrap();
        expect(diffs.map((diff) => diff.path)).toEqual(changes.map((path) => join(dir, path)));
        expect(JSON.stringify(diffs)).not.toContain("hunter2");
        for (const diff of diffs.filter((d) => !d.path.endsWith("a.txt"))) {
          expect(diff).toEqual({
            path: diff.path,
            oldText: null,
            newText: null,
            note: hiddenNote(diff.path.endsWith(".env") && command === "rm .env" ? "deleted" : "changed"),
          });
          expect(snapshot.hidden?.(diff.path)).toBe(true);
          expect(snapshot.before?.(diff.path)).toBeUndefined();
        }
      }
      if (inGit) expect(allObjects(dir)).not.toContain("hunter2");
    });
  }

  it("keeps a hidden file out of .git after a .gitignore that ignored it is rewritten", async () => {
    const repo = await gitRepo(await dirs.make(), { ".gitignore": ".env\n", "a.txt": "a\n" });
    await writeFiles(repo, { ".env": SECRET });
    const tracker = changeTracker({ hidden: hiddenFor });
    const snapshot = (await tracker.begin(repo))._unsafeUnwrap();
    sh(repo, "echo '*.log' > .gitignore");
    const diffs = (await snapshot.finish())._unsafeUnwrap();
    expect(diffs.map((diff) => diff.path)).toEqual([join(repo, ".gitignore")]);
    expect(allObjects(repo)).not.toContain("hunter2");
  });

  it("keeps a hidden file out of a repository a command makes", async () => {
    const dir = await dirs.make();
    await writeFiles(dir, { ".env": SECRET, "a.txt": "a\n" });
    const tracker = changeTracker({ hidden: hiddenFor });
    (await (await tracker.begin(dir))._unsafeUnwrap().finish())._unsafeUnwrap();
    sh(dir, "git init -q");
    const snapshot = (await tracker.begin(dir))._unsafeUnwrap();
    sh(dir, "echo b > a.txt");
    expect((await snapshot.finish())._unsafeUnwrap().map((diff) => diff.path)).toEqual([join(dir, "a.txt")]);
    expect(allObjects(dir)).not.toContain("hunter2");
  });

  it("does not watch a cwd that is hidden", async () => {
    const dir = await dirs.make();
    const tracker = changeTracker({ hidden: () => [dir] });
    expect((await tracker.begin(join(dir)))._unsafeUnwrapErr()).toMatchObject({ kind: "unavailable" });
  });
});

describe("changeTracker and a hidden file under another name", () => {
  for (const inGit of [true, false]) {
    it(`names a hidden file renamed or linked out of a hidden path without its content, ${inGit ? "in git" : "outside git"}`, async () => {
      const dir = await dirs.make();
      if (inGit) await gitRepo(dir, { "a.txt": "a\n" });
      else await writeFiles(dir, { "a.txt": "a\n" });
      await writeFiles(dir, { ".env": SECRET, "secrets/key": SECRET });
      const tracker = changeTracker({ hidden: hiddenFor });
      for (const [command, name] of [
        ["mv .env env.old", "env.old"],
        ["ln secrets/key key.txt", "key.txt"],
        ["mv secrets open", "open/key"],
      ] as const) {
        const snapshot = (await tracker.begin(dir))._unsafeUnwrap();
        sh(dir, command);
        const diffs = (await snapshot.finish())._unsafeUnwrap();
        expect(JSON.stringify(diffs)).not.toContain("hunter2");
        expect(diffs.find((diff) => diff.path === join(dir, name))).toEqual({ path: join(dir, name), oldText: null, newText: null, note: MOVED_HIDDEN_NOTE });
        expect(snapshot.hidden?.(join(dir, name))).toBe(true);
      }
    });
  }
});
