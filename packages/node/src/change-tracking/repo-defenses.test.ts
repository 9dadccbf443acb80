/**
 * The tracker runs git on the host, outside the sandbox, in a repository a sandboxed command can write
 * (issue 27). Each attack here planted a program the old tracker ran, with the agent's environment
 * (the model's key included), on its next bash call: a `core.fsmonitor` hook, a clean filter named by
 * `.gitattributes`, a repository made by `git init` inside the command itself, and a `.git` file
 * sending the tracker's objects to another repository. Each test of the first group failed on the code
 * before this change (checked by running it against that code).
 */
import { existsSync, readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { changeTracker } from "./change-tracker.js";
import { driverSettings, lastValues, objectStoreEscape, programLeft } from "./repo-defenses.js";
import { gitEnvironment } from "./run-git.js";
import { diffsOf, git, gitRepo, sh, tempDirs } from "./test-support.js";

const dirs = tempDirs();
afterEach(() => dirs.cleanUp());

/** A program that, when run, leaves `marker` with its environment. */
const plant = async (dir: string, marker: string): Promise<string> => {
  const script = join(dir, "evil.sh");
  await writeFile(script, `#!/bin/sh\nenv > ${JSON.stringify(marker)}\ncat\n`, { mode: 0o755 });
  return script;
};

describe("the tracker's git runs nothing of the repository", () => {
  it("ignores a core.fsmonitor hook planted in .git/config", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n" });
    const marker = join(await dirs.make(), "pwned");
    git(repo, "config", "core.fsmonitor", await plant(await dirs.make(), marker));
    const diffs = await diffsOf(changeTracker({ env: { PATH: process.env.PATH, OPENAI_API_KEY: "sk-secret" } }), repo, "echo b > a.txt");
    expect(diffs).toEqual([{ path: join(repo, "a.txt"), oldText: "a\n", newText: "b\n" }]);
    expect(existsSync(marker)).toBe(false);
  });

  it("turns off a clean filter named by .gitattributes, also one defined by the command itself", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n", ".gitattributes": "* filter=evil\n" });
    const marker = join(await dirs.make(), "pwned");
    const script = await plant(await dirs.make(), marker);
    const tracker = changeTracker({ env: { PATH: process.env.PATH, OPENAI_API_KEY: "sk-secret" } });
    const diffs = await diffsOf(tracker, repo, `git config filter.evil.clean ${script} && git config filter.evil.process ${script} && echo b > a.txt`);
    expect(diffs).toEqual([{ path: join(repo, "a.txt"), oldText: "a\n", newText: "b\n" }]);
    expect(existsSync(marker)).toBe(false);
  });

  it("turns off a filter whose name differs from another's only by case", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n", ".gitattributes": "* filter=EVIL\n" });
    const marker = join(await dirs.make(), "pwned");
    const script = await plant(await dirs.make(), marker);
    const tracker = changeTracker({ env: { PATH: process.env.PATH, OPENAI_API_KEY: "sk-secret" } });
    const diffs = await diffsOf(tracker, repo, `git config filter.EVIL.clean ${script} && git config filter.evil.clean cat && echo b > a.txt`);
    expect(diffs).toEqual([{ path: join(repo, "a.txt"), oldText: "a\n", newText: "b\n" }]);
    expect(existsSync(marker)).toBe(false);
  });

  it("ignores the hook of a repository the command made with git init", async () => {
    const dir = await dirs.make();
    const marker = join(await dirs.make(), "pwned");
    const script = await plant(await dirs.make(), marker);
    const tracker = changeTracker({ env: { PATH: process.env.PATH } });
    await diffsOf(tracker, dir, `git init -q && git config core.fsmonitor ${script} && git config user.email a@b && echo x > f`);
    await diffsOf(tracker, dir, "echo y > f");
    expect(existsSync(marker)).toBe(false);
  });

  it("writes no object into a repository a .git file points to: the cwd is scanned instead", async () => {
    const elsewhere = await gitRepo(await dirs.make(), { "x.txt": "x\n" });
    const objects = () => sh(join(elsewhere, ".git"), "find objects -type f | wc -l").trim();
    const before = objects();
    const dir = await dirs.make();
    await writeFile(join(dir, ".git"), `gitdir: ${join(elsewhere, ".git")}\n`);
    const diffs = await diffsOf(changeTracker(), dir, "echo new > n.txt");
    expect(diffs).toContainEqual({ path: join(dir, "n.txt"), oldText: null, newText: "new\n" });
    expect(objects()).toBe(before);
  });

  it("gives git no variable of the agent's environment but PATH and HOME", () => {
    const env = gitEnvironment({ PATH: "/bin", HOME: "/home/u", OPENAI_API_KEY: "sk-secret", GIT_DIR: "/elsewhere", AWS_SECRET_ACCESS_KEY: "x" });
    expect(Object.keys(env).filter((name) => !name.startsWith("GIT_"))).toEqual(["PATH", "HOME", "LC_ALL"]);
    expect(env.GIT_DIR).toBeUndefined();
    expect(Object.values(env)).not.toContain("sk-secret");
    expect(env).toMatchObject({ GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_KEY_0: "core.fsmonitor", GIT_CONFIG_VALUE_0: "false" });
  });
});

describe("repository defenses", () => {
  it("turn off every driver listed, and find a program left", () => {
    const listing = "filter.lfs.clean\ngit-lfs clean\0filter.evil.process\n./x\0diff.pdf.textconv\npdftotext\0core.fsmonitor\n./hook\0core.fsmonitor\nfalse\0";
    expect(lastValues(listing).get("core.fsmonitor")).toBe("false");
    expect(driverSettings(listing).map(([name]) => name)).toEqual([
      "filter.lfs.clean",
      "filter.lfs.smudge",
      "filter.lfs.process",
      "filter.lfs.required",
      "filter.evil.clean",
      "filter.evil.smudge",
      "filter.evil.process",
      "filter.evil.required",
      "diff.pdf.textconv",
      "diff.pdf.command",
    ]);
    expect(programLeft("filter.evil.clean\n\0core.fsmonitor\nfalse\0core.hookspath\n/dev/null\0")).toBeUndefined();
    expect(programLeft("filter.evil.clean\n./x\0")).toBe("filter.evil.clean=./x");
  });

  it("leave a repository without drivers as it was", async () => {
    const repo = await gitRepo(await dirs.make(), { "a.txt": "a\n" });
    expect(readdirSync(repo)).toContain(".git");
    expect(await diffsOf(changeTracker(), repo, "echo c >> a.txt")).toEqual([{ path: join(repo, "a.txt"), oldText: "a\n", newText: "a\nc\n" }]);
  });
});

describe("objectStoreEscape", () => {
  const made = tempDirs();
  afterEach(() => made.cleanUp());

  it("passes a repository's own object store, and names one linked out, a fan-out directory linked out, or alternates", async () => {
    const repo = await gitRepo(await made.make(), { "a.txt": "a\n" });
    const outside = await made.make();
    const objects = join(repo, ".git", "objects");
    expect(objectStoreEscape(objects, repo)).toBeUndefined();
    sh(repo, `mkdir -p .git/objects/ab && rm -rf .git/objects/ab && ln -s ${outside} .git/objects/ab`);
    expect(objectStoreEscape(objects, repo)).toBe(`${join(objects, "ab")} is a link`);
    sh(repo, `rm .git/objects/ab && echo ${outside} > .git/objects/info/alternates`);
    expect(objectStoreEscape(objects, repo)).toContain("info/alternates");
    sh(repo, `rm .git/objects/info/alternates && mv .git/objects .git/objs && ln -s ${outside} .git/objects`);
    expect(objectStoreEscape(objects, repo)).toContain("not a directory");
  });
});
