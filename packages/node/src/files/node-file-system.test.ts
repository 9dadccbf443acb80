import { chmod, lstat, mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeFileSystem } from "./node-file-system.js";

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "mm-fs-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const isRoot = process.getuid?.() === 0;

describe("nodeFileSystem.readText", () => {
  it("reads UTF-8 text", async () => {
    await writeFile(join(dir, "a.txt"), "héllo ✓\n");
    expect((await nodeFileSystem().readText(join(dir, "a.txt")))._unsafeUnwrap()).toBe("héllo ✓\n");
  });

  it("fails binary when the first 8 KiB hold a NUL byte", async () => {
    await writeFile(join(dir, "b.bin"), Buffer.from([0x41, 0x00, 0x42]));
    expect((await nodeFileSystem().readText(join(dir, "b.bin")))._unsafeUnwrapErr()).toEqual({ kind: "binary", path: join(dir, "b.bin") });
  });

  it("reads a file whose only NUL comes after the first 8 KiB", async () => {
    await writeFile(join(dir, "late.txt"), Buffer.concat([Buffer.alloc(9000, 0x61), Buffer.from([0])]));
    expect((await nodeFileSystem().readText(join(dir, "late.txt"))).isOk()).toBe(true);
  });

  it("fails too-large over the limit", async () => {
    await writeFile(join(dir, "big.txt"), "x".repeat(101));
    const result = await nodeFileSystem({ maxReadBytes: 100 }).readText(join(dir, "big.txt"));
    expect(result._unsafeUnwrapErr()).toEqual({ kind: "too-large", path: join(dir, "big.txt"), size: 101 });
  });

  it("fails not-found for a missing file and for a path through a file", async () => {
    await writeFile(join(dir, "f"), "x");
    const fs = nodeFileSystem();
    expect((await fs.readText(join(dir, "nope")))._unsafeUnwrapErr().kind).toBe("not-found");
    expect((await fs.readText(join(dir, "f", "under")))._unsafeUnwrapErr().kind).toBe("not-found");
  });

  it("fails is-directory for a directory", async () => {
    expect((await nodeFileSystem().readText(dir))._unsafeUnwrapErr()).toEqual({ kind: "is-directory", path: dir });
  });

  it("reads /proc files whose reported size is 0", async () => {
    expect((await nodeFileSystem().readText("/proc/self/status"))._unsafeUnwrap()).toContain("Name:");
  });

  // Root reads through any mode bits; the errno mapping itself is covered in fs-error.test.ts.
  it.skipIf(isRoot)("fails denied on a file without read permission", async () => {
    await writeFile(join(dir, "secret"), "x");
    await chmod(join(dir, "secret"), 0o000);
    expect((await nodeFileSystem().readText(join(dir, "secret")))._unsafeUnwrapErr().kind).toBe("denied");
  });
});

describe("nodeFileSystem.writeText", () => {
  it("creates parent directories and writes", async () => {
    const path = join(dir, "x", "y", "z.txt");
    expect((await nodeFileSystem().writeText(path, "ünïcode")).isOk()).toBe(true);
    expect(await readFile(path, "utf8")).toBe("ünïcode");
  });

  it("replaces an existing file", async () => {
    await writeFile(join(dir, "a"), "old content");
    await nodeFileSystem().writeText(join(dir, "a"), "new");
    expect(await readFile(join(dir, "a"), "utf8")).toBe("new");
  });

  it("fails is-directory when the path is a directory", async () => {
    await mkdir(join(dir, "d"));
    expect((await nodeFileSystem().writeText(join(dir, "d"), "x"))._unsafeUnwrapErr().kind).toBe("is-directory");
  });

  it("fails io when a parent is a file", async () => {
    await writeFile(join(dir, "f"), "x");
    const error = (await nodeFileSystem().writeText(join(dir, "f", "g.txt"), "x"))._unsafeUnwrapErr();
    expect(error.kind).toBe("io");
  });
});

describe("nodeFileSystem.stat", () => {
  it("tells files, directories and others apart", async () => {
    await writeFile(join(dir, "f"), "12345");
    const fs = nodeFileSystem();
    expect((await fs.stat(join(dir, "f")))._unsafeUnwrap()).toEqual({ kind: "file", size: 5 });
    expect((await fs.stat(dir))._unsafeUnwrap().kind).toBe("directory");
    expect((await fs.stat("/dev/null"))._unsafeUnwrap().kind).toBe("other");
  });

  it("fails not-found when nothing is there", async () => {
    expect((await nodeFileSystem().stat(join(dir, "nope")))._unsafeUnwrapErr()).toEqual({ kind: "not-found", path: join(dir, "nope") });
  });
});

// Attack of issue 27 (sandbox off too): a command plants `notes.txt -> ~/.bash_profile`; the old code
// opened with O_CREAT following the link and created the target.
describe("nodeFileSystem and symbolic links", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mm-nfs-links-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("lands a path under missing directories below a linked one at the link's target", async () => {
    await mkdir(join(dir, "real"));
    await symlink(join(dir, "real"), join(dir, "linked"));
    const landed = await nodeFileSystem().realPath!(join(dir, "linked/gone/deeper/a.txt"));
    expect(landed._unsafeUnwrap()).toBe(join(await realpath(dir), "real/gone/deeper/a.txt"));
  });

  it("refuses a write through a link to nothing, and creates nothing", async () => {
    await symlink(join(dir, "profile"), join(dir, "notes.txt"));
    const written = await nodeFileSystem().writeText(join(dir, "notes.txt"), "evil");
    expect(written._unsafeUnwrapErr()).toMatchObject({ kind: "io", message: expect.stringContaining("symbolic link to a file that does not exist") });
    await expect(lstat(join(dir, "profile"))).rejects.toThrow();
  });

  it("writes and reads through a link to an existing file at its target", async () => {
    await writeFile(join(dir, "real.txt"), "old");
    await symlink("real.txt", join(dir, "alias.txt"));
    expect((await nodeFileSystem().writeText(join(dir, "alias.txt"), "new")).isOk()).toBe(true);
    expect(await readFile(join(dir, "real.txt"), "utf8")).toBe("new");
    expect((await lstat(join(dir, "alias.txt"))).isSymbolicLink()).toBe(true);
    expect((await nodeFileSystem().readText(join(dir, "alias.txt")))._unsafeUnwrap()).toBe("new");
  });
});
