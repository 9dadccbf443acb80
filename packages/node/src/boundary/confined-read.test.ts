import { spawnSync } from "node:child_process";
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { confinedReadText, DEFAULT_CONFINED_READ_BYTES, HIDDEN_PATH, OUTSIDE_ROOT, staysInside } from "./confined-read.js";

let base: string;
let root: string;
let secrets: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "mm-boundary-"));
  root = join(base, "project");
  secrets = join(base, "home", ".ssh");
  mkdirSync(root);
  mkdirSync(secrets, { recursive: true });
  writeFileSync(join(secrets, "id_rsa"), "PRIVATE KEY\n");
  writeFileSync(join(base, "outside.txt"), "outside\n");
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const read = (path: string, options: { hidden?: readonly string[]; maxBytes?: number } = {}) =>
  confinedReadText({ root, path, hidden: options.hidden ?? [secrets], ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}) });

describe("confinedReadText", () => {
  it("reads a regular file inside the root, and a link to one inside it", async () => {
    writeFileSync(join(root, "AGENTS.md"), "be nice\n");
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "docs", "agents.md"), "from docs\n");
    symlinkSync("docs/agents.md", join(root, "LINKED.md"));
    expect((await read("AGENTS.md"))._unsafeUnwrap()).toBe("be nice\n");
    expect((await read("LINKED.md"))._unsafeUnwrap()).toBe("from docs\n");
  });

  it("refuses a link leaving the root, relative or absolute, and a directory of the path that is one", async () => {
    symlinkSync("../outside.txt", join(root, "AGENTS.md"));
    symlinkSync(join(base, "outside.txt"), join(root, "ABS.md"));
    symlinkSync(base, join(root, "up"));
    for (const path of ["AGENTS.md", "ABS.md", "up/outside.txt", join(root, "..", "outside.txt")]) {
      expect((await read(path))._unsafeUnwrapErr()).toMatchObject({ kind: "io", message: OUTSIDE_ROOT(root) });
    }
  });

  it("refuses a hidden path, named or reached through a link, even inside the root", async () => {
    symlinkSync(join(secrets, "id_rsa"), join(root, "AGENTS.md"));
    writeFileSync(join(root, ".env"), "KEY=1\n");
    expect((await read("AGENTS.md"))._unsafeUnwrapErr()).toMatchObject({ kind: "io", message: HIDDEN_PATH });
    expect((await read(".env", { hidden: [join(root, ".env")] }))._unsafeUnwrapErr()).toMatchObject({ kind: "io", message: HIDDEN_PATH });
  });

  it("refuses a FIFO without waiting on it, a directory, binary content and a file over the cap", async () => {
    spawnSync("mkfifo", [join(root, "fifo")]);
    mkdirSync(join(root, "dir"));
    writeFileSync(join(root, "bin"), Buffer.from([1, 0, 2]));
    writeFileSync(join(root, "big"), "x".repeat(11));
    expect((await read("fifo"))._unsafeUnwrapErr()).toMatchObject({ kind: "io", message: "refused: not a regular file (a FIFO)" });
    expect((await read("dir"))._unsafeUnwrapErr().kind).toBe("is-directory");
    expect((await read("bin"))._unsafeUnwrapErr().kind).toBe("binary");
    expect((await read("big", { maxBytes: 10 }))._unsafeUnwrapErr()).toMatchObject({ kind: "too-large", size: 11 });
    expect(DEFAULT_CONFINED_READ_BYTES).toBe(1024 * 1024);
  });

  it("says not-found for nothing there and for a link to nothing", async () => {
    symlinkSync(join(root, "nowhere"), join(root, "AGENTS.md"));
    expect((await read("AGENTS.md"))._unsafeUnwrapErr().kind).toBe("not-found");
    expect((await read("missing.md"))._unsafeUnwrapErr().kind).toBe("not-found");
  });

  it("takes /tmp as the sandbox's private one when given its view", async () => {
    const privateTmp = join(base, "private-tmp");
    mkdirSync(privateTmp);
    writeFileSync(join(privateTmp, "x"), "private\n");
    symlinkSync("/tmp/x", join(root, "AGENTS.md"));
    const view = { cwd: root, writable: [], home: join(base, "home"), privateTmp };
    const refused = await confinedReadText({ root, path: "AGENTS.md", hidden: [], view });
    expect(refused._unsafeUnwrapErr()).toMatchObject({ kind: "io", message: OUTSIDE_ROOT(root) });
  });
});

describe("staysInside", () => {
  it("is true for a link inside the root, false for one out of it or into a hidden path", async () => {
    writeFileSync(join(root, "a.txt"), "a");
    symlinkSync("a.txt", join(root, "in"));
    symlinkSync("../outside.txt", join(root, "out"));
    expect(await staysInside(root, join(root, "in"), [])).toBe(true);
    expect(await staysInside(root, join(root, "out"), [])).toBe(false);
    expect(await staysInside(root, join(root, "in"), [join(root, "a.txt")])).toBe(false);
  });
});

describe("a hard link", () => {
  it("is refused, to a hidden file or to one outside: its other name cannot be seen from the path", async () => {
    linkSync(join(secrets, "id_rsa"), join(root, "AGENTS.md"));
    linkSync(join(base, "outside.txt"), join(root, "notes.md"));
    for (const path of ["AGENTS.md", "notes.md"]) {
      const result = await read(path);
      expect(result.isErr() && result.error.kind === "io" && result.error.message).toMatch(/^refused: a hard link \(the file has 2 names/);
    }
  });
});
