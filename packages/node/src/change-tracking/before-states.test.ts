/** What the trackers keep of a changed file's state before a command, for /undo: binary included. */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ownerOnlyMode } from "../system/umask.js";
import { changeTracker } from "./change-tracker.js";
import { gitRepo, sh, tempDirs, writeFiles } from "./test-support.js";

const dirs = tempDirs();
afterEach(() => dirs.cleanUp());

const BINARY = Buffer.from([0, 1, 2, 255, 0, 7]);
const COMMAND = "printf x > bin.dat && rm gone.txt && echo new > new.txt && sed -i s/a/b/ f.txt";

const check = async (cwd: string) => {
  const snapshot = (await changeTracker().begin(cwd))._unsafeUnwrap();
  sh(cwd, COMMAND);
  const diffs = (await snapshot.finish())._unsafeUnwrap();
  expect(diffs.map((d) => d.path)).toEqual(["bin.dat", "f.txt", "gone.txt", "new.txt"].map((name) => join(cwd, name)));
  expect(Buffer.from(snapshot.before?.(join(cwd, "bin.dat"))?.bytes ?? [])).toEqual(BINARY);
  expect(Buffer.from(snapshot.before?.(join(cwd, "gone.txt"))?.bytes ?? []).toString()).toBe("bye\n");
  expect(Buffer.from(snapshot.before?.(join(cwd, "f.txt"))?.bytes ?? []).toString()).toBe("a\n");
  expect(snapshot.before?.(join(cwd, "new.txt"))).toBeNull();
  expect(snapshot.before?.(join(cwd, "other"))).toBeUndefined();
};

describe("before-states", () => {
  it("in a git work tree", async () => {
    await check(await gitRepo(await dirs.make(), { "bin.dat": BINARY, "gone.txt": "bye\n", "f.txt": "a\n" }));
  });

  it("outside git", async () => {
    const dir = await dirs.make();
    await writeFiles(dir, { "bin.dat": BINARY, "gone.txt": "bye\n", "f.txt": "a\n" });
    await check(dir);
  });

  it("with the mode of a removed file: git's executable bit in a work tree, the file's own mode outside git", async () => {
    const repo = await dirs.make();
    await writeFiles(repo, { "run.sh": "#!/bin/sh\n", "plain.txt": "p\n", "kept.sh": "#!/bin/sh\n" });
    sh(repo, "chmod 755 run.sh kept.sh && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm init");
    const inGit = (await changeTracker().begin(repo))._unsafeUnwrap();
    sh(repo, "rm run.sh plain.txt && echo more >> kept.sh");
    (await inGit.finish())._unsafeUnwrap();
    // Git keeps only the executable bit: owner only, 0700 or 0600 (under the umask).
    expect(inGit.before?.(join(repo, "run.sh"))?.mode).toBe(ownerOnlyMode(true));
    expect(inGit.before?.(join(repo, "plain.txt"))?.mode).toBe(ownerOnlyMode(false));
    // Still there: it keeps the mode it has (git's bit is not the file's whole mode).
    expect(inGit.before?.(join(repo, "kept.sh"))?.mode).toBeUndefined();
    const dir = await dirs.make();
    await writeFiles(dir, { "secret.env": "K=v\n", "run.sh": "#!/bin/sh\n" });
    sh(dir, "chmod 600 secret.env && chmod 750 run.sh");
    const plain = (await changeTracker().begin(dir))._unsafeUnwrap();
    sh(dir, "rm secret.env && echo more >> run.sh");
    (await plain.finish())._unsafeUnwrap();
    expect(plain.before?.(join(dir, "secret.env"))?.mode).toBe(0o600);
    expect(plain.before?.(join(dir, "run.sh"))?.mode).toBe(0o750);
  });

  it("in a git work tree, not of a file git converts as it stores it (core.autocrlf): its blob is not the user's bytes", async () => {
    const repo = await dirs.make();
    sh(repo, "git init -q && git config core.autocrlf input");
    await writeFiles(repo, { "crlf.txt": "a\r\nb\r\n", "lf.txt": "a\n" });
    sh(repo, "git add -A && git -c user.name=t -c user.email=t@t commit -qm init");
    const snapshot = (await changeTracker().begin(repo))._unsafeUnwrap();
    sh(repo, "sed -i s/a/c/ crlf.txt lf.txt");
    expect((await snapshot.finish())._unsafeUnwrap().map((d) => d.path)).toEqual([join(repo, "crlf.txt"), join(repo, "lf.txt")]);
    expect(snapshot.before?.(join(repo, "crlf.txt"))).toBeUndefined();
    expect(Buffer.from(snapshot.before?.(join(repo, "lf.txt"))?.bytes ?? []).toString()).toBe("a\n");
  });

  it("of a file too large to diff: read in a git work tree (within its own limit), not kept outside git", async () => {
    const large = Buffer.alloc(300 * 1024, 7);
    const repo = await gitRepo(await dirs.make(), { "large.bin": large, "huge.bin": Buffer.alloc(600 * 1024, 1) });
    const snapshot = (await changeTracker({ maxBeforeFileBytes: 512 * 1024 }).begin(repo))._unsafeUnwrap();
    sh(repo, "echo small > large.bin && echo small > huge.bin");
    const diffs = (await snapshot.finish())._unsafeUnwrap();
    expect(diffs.map((d) => d.note)).toEqual(["file changed, not shown: larger than 256 KiB", "file changed, not shown: larger than 256 KiB"]);
    expect(Buffer.from(snapshot.before?.(join(repo, "large.bin"))?.bytes ?? [])).toEqual(large);
    expect(snapshot.before?.(join(repo, "huge.bin"))).toBeUndefined();
    const dir = await dirs.make();
    await writeFiles(dir, { "large.bin": large });
    const plain = (await changeTracker().begin(dir))._unsafeUnwrap();
    sh(dir, "echo small > large.bin");
    (await plain.finish())._unsafeUnwrap();
    expect(plain.before?.(join(dir, "large.bin"))).toBeUndefined();
  });
});
