/** The undo store on disk: blobs and log in the sessions dir, hostile files, restores that never follow links. */
import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ok } from "neverthrow";
import { nodeUndoStore } from "./node-undo-store.js";
import { undoKeyFile } from "./undo-key.js";

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
const temp = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), "mm-undo-"));
  made.push(dir);
  return dir;
};

const ID = "20260916-101530-4f2a9c1e";
const KEY = new Uint8Array(32).fill(7);
const key = async () => ok(KEY);

/** A log line as mm writes one, signed with `with`. */
const signed = (value: unknown, signer: Uint8Array = KEY): string => {
  const body = JSON.stringify(value);
  return `${body.slice(0, -1)},"mac":"${createHmac("sha256", signer).update(body).digest("hex")}"}\n`;
};

describe("nodeUndoStore", () => {
  it("keeps blobs by hash and the log beside the session, and drops what the log no longer names", async () => {
    const cwd = await temp();
    const store = nodeUndoStore({ dir: ".mm/sessions" });
    const place = { cwd, sessionId: ID };
    const bytes = new Uint8Array([0, 1, 2, 3]);
    const hash = (await store.putBlob(place, bytes))._unsafeUnwrap();
    expect(hash).toBe(store.hash(bytes));
    expect([...(await store.getBlob(place, hash))._unsafeUnwrap()]).toEqual([0, 1, 2, 3]);
    const log = {
      turns: [{ at: 1, question: "q", files: [{ path: `${cwd}/a`, before: { kind: "blob" as const, hash, size: 4 }, after: { kind: "absent" as const } }] }],
    };
    (await store.saveLog(place, log))._unsafeUnwrap();
    expect((await store.loadLog(place))._unsafeUnwrap()).toEqual(log);
    const dir = join(cwd, ".mm/sessions");
    // The sessions dir's own .gitignore (written when it is made) aside.
    expect((await readdir(dir)).sort()).toEqual([".gitignore", `${ID}.undo`, `${ID}.undo.json`]);
    (await store.saveLog(place, { turns: [] }))._unsafeUnwrap();
    expect(await readdir(dir)).toEqual([".gitignore"]);
    expect((await store.loadLog(place))._unsafeUnwrap()).toEqual({ turns: [] });
  });

  it("does not read a log larger than mm writes (it is read at every turn)", async () => {
    const cwd = await temp();
    const store = nodeUndoStore({ dir: ".mm/sessions", key });
    await mkdir(join(cwd, ".mm/sessions"), { recursive: true });
    const log = join(cwd, `.mm/sessions/${ID}.undo.json`);
    await writeFile(log, "");
    await truncate(log, 65 * 1024 * 1024);
    expect((await store.loadLog({ cwd, sessionId: ID }))._unsafeUnwrapErr().message).toBe(`undo log is larger than 64 MiB, more than mm writes: ${log}`);
  });

  it("refuses a log out of shape in one line, a blob that does not match its name, and a bad id", async () => {
    const cwd = await temp();
    const store = nodeUndoStore({ dir: ".mm/sessions", key });
    const place = { cwd, sessionId: ID };
    await mkdir(join(cwd, ".mm/sessions"), { recursive: true });
    await writeFile(
      join(cwd, `.mm/sessions/${ID}.undo.json`),
      signed({ format: "mm-undo", version: 1, id: ID, cwd, turns: [{ at: 1, question: "q", files: [{ path: "../x" }] }] }),
    );
    const refused = (await store.loadLog(place))._unsafeUnwrapErr();
    expect(refused.kind).toBe("corrupt");
    expect(refused.message).toMatch(/turns\[0\]\.files\[0\]\.path: expected an absolute path, got "\.\.\/x"$/);
    const hash = (await store.putBlob(place, new Uint8Array([1])))._unsafeUnwrap();
    await writeFile(join(cwd, `.mm/sessions/${ID}.undo/${hash}`), "tampered");
    expect((await store.getBlob(place, hash))._unsafeUnwrapErr().kind).toBe("corrupt");
    expect((await store.getBlob(place, "../../etc/passwd"))._unsafeUnwrapErr().kind).toBe("corrupt");
    expect((await store.loadLog({ cwd, sessionId: "../x" }))._unsafeUnwrapErr().message).toMatch(/^invalid session id/);
  });

  it("refuses a log copied with the project to another directory: its paths name the first one's files", async () => {
    const cwd = await temp();
    const copy = await temp();
    const store = nodeUndoStore({ dir: ".mm/sessions", key });
    const hash = (await store.putBlob({ cwd, sessionId: ID }, new Uint8Array([1])))._unsafeUnwrap();
    const turns = [
      { at: 1, question: "q", files: [{ path: join(cwd, "a"), before: { kind: "blob" as const, hash, size: 1 }, after: { kind: "absent" as const } }] },
    ];
    (await store.saveLog({ cwd, sessionId: ID }, { turns }))._unsafeUnwrap();
    await mkdir(join(copy, ".mm/sessions"), { recursive: true });
    await writeFile(join(copy, `.mm/sessions/${ID}.undo.json`), await readFile(join(cwd, `.mm/sessions/${ID}.undo.json`)));
    const refused = (await store.loadLog({ cwd: copy, sessionId: ID }))._unsafeUnwrapErr();
    expect(refused.kind).toBe("corrupt");
    expect(refused.message).toMatch(/: cwd: expected .*, got .*: written for another directory$/);
    expect((await store.loadLog({ cwd, sessionId: ID }))._unsafeUnwrap()).toEqual({ turns });
  });

  it("keeps a blob whose name is taken by other bytes of the same size (planted, or damaged) as its own bytes", async () => {
    const cwd = await temp();
    const store = nodeUndoStore({ dir: ".mm/sessions", key });
    const place = { cwd, sessionId: ID };
    const bytes = new TextEncoder().encode("the user's file");
    const hash = store.hash(bytes);
    await mkdir(join(cwd, `.mm/sessions/${ID}.undo`), { recursive: true });
    await writeFile(join(cwd, `.mm/sessions/${ID}.undo/${hash}`), "x".repeat(bytes.length));
    expect((await store.putBlob(place, bytes))._unsafeUnwrap()).toBe(hash);
    expect(new TextDecoder().decode((await store.getBlob(place, hash))._unsafeUnwrap())).toBe("the user's file");
  });

  it("never blocks on a blob that is a FIFO now: refused as not a regular file", async () => {
    const cwd = await temp();
    const store = nodeUndoStore({ dir: ".mm/sessions", key });
    const place = { cwd, sessionId: ID };
    const hash = (await store.putBlob(place, new Uint8Array([1, 2])))._unsafeUnwrap();
    const path = join(cwd, `.mm/sessions/${ID}.undo/${hash}`);
    await rm(path);
    execFileSync("mkfifo", [path]);
    const got = await Promise.race([store.getBlob(place, hash), new Promise((resolve) => setTimeout(() => resolve("blocked"), 2000))]);
    expect(got).not.toBe("blocked");
    expect((got as Awaited<ReturnType<typeof store.getBlob>>)._unsafeUnwrapErr().message).toMatch(/not a regular file/);
  });

  it("reads a file's permission bits and restores them: given, else the mode of the file replaced, never a setuid bit", async () => {
    const cwd = await temp();
    const store = nodeUndoStore({ dir: ".mm/sessions" });
    const modeOf = async (name: string) => (await stat(join(cwd, name))).mode & 0o7777;
    await writeFile(join(cwd, "run.sh"), "#!/bin/sh\n");
    await chmod(join(cwd, "run.sh"), 0o750);
    expect(await store.read(join(cwd, "run.sh"), 100)).toMatchObject({ kind: "bytes", mode: 0o750 });
    // A removed script comes back executable, a secret stays private.
    (await store.restore(join(cwd, "gone.sh"), new TextEncoder().encode("#!/bin/sh\n"), 0o755))._unsafeUnwrap();
    expect(await modeOf("gone.sh")).toBe(0o755);
    (await store.restore(join(cwd, "secret.env"), new TextEncoder().encode("K=v\n"), 0o600))._unsafeUnwrap();
    expect(await modeOf("secret.env")).toBe(0o600);
    // Without a mode: the file replaced keeps its own; a mode with more than permission bits is cut to them.
    (await store.restore(join(cwd, "run.sh"), new TextEncoder().encode("echo\n")))._unsafeUnwrap();
    expect(await modeOf("run.sh")).toBe(0o750);
    (await store.restore(join(cwd, "run.sh"), new TextEncoder().encode("echo\n"), 0o4755))._unsafeUnwrap();
    expect(await modeOf("run.sh")).toBe(0o755);
  });

  it("keeps a blob's mode in the log, and refuses one that is not permission bits", async () => {
    const cwd = await temp();
    const store = nodeUndoStore({ dir: ".mm/sessions", key });
    const place = { cwd, sessionId: ID };
    const hash = (await store.putBlob(place, new Uint8Array([1])))._unsafeUnwrap();
    const log = {
      turns: [
        {
          at: 1,
          question: "q",
          files: [{ path: `${cwd}/a`, before: { kind: "blob" as const, hash, size: 1, mode: 0o755 }, after: { kind: "absent" as const } }],
        },
      ],
    };
    (await store.saveLog(place, log))._unsafeUnwrap();
    expect((await store.loadLog(place))._unsafeUnwrap()).toEqual(log);
    const file = join(cwd, ".mm/sessions", `${ID}.undo.json`);
    const bad = {
      format: "mm-undo",
      version: 1,
      id: ID,
      cwd,
      turns: [{ ...log.turns[0], files: [{ ...log.turns[0]!.files[0], before: { kind: "blob", hash, size: 1, mode: 0o4755 } }] }],
    };
    await writeFile(file, signed(bad));
    expect((await store.loadLog(place))._unsafeUnwrapErr().message).toMatch(
      /turns\[0\]\.files\[0\]\.before\.mode: expected permission bits \(0 to 0o777\), got 2541$/,
    );
  });

  it("reads a link as unreadable, and restores by replacing what is at the path, never writing through a link", async () => {
    const cwd = await temp();
    const outside = await temp();
    const store = nodeUndoStore({ dir: ".mm/sessions" });
    await writeFile(join(outside, "secret"), "keep");
    await symlink(join(outside, "secret"), join(cwd, "a.txt"));
    expect(await store.read(join(cwd, "a.txt"), 100)).toEqual({ kind: "unreadable", reason: "a symbolic link is there now" });
    (await store.restore(join(cwd, "a.txt"), new TextEncoder().encode("mine")))._unsafeUnwrap();
    expect(await readFile(join(cwd, "a.txt"), "utf8")).toBe("mine");
    expect(await readFile(join(outside, "secret"), "utf8")).toBe("keep");
    await symlink(outside, join(cwd, "dir"));
    expect((await store.restore(join(cwd, "dir/secret"), new TextEncoder().encode("x")))._unsafeUnwrapErr()).toMatch(
      /through a symbolic link; not written through$/,
    );
    expect((await store.restore(join(cwd, "dir/secret"), null))._unsafeUnwrapErr()).toMatch(/through a symbolic link/);
    expect(await readFile(join(outside, "secret"), "utf8")).toBe("keep");
    // Directories the file needs are not made through a link either (mkdir would follow it).
    expect((await store.restore(join(cwd, "dir/made/here/c.txt"), new TextEncoder().encode("x")))._unsafeUnwrapErr()).toMatch(/through a symbolic link/);
    expect(await readdir(outside)).toEqual(["secret"]);
    (await store.restore(join(cwd, "new/deep/b.bin"), new Uint8Array([0, 255])))._unsafeUnwrap();
    expect([...(await readFile(join(cwd, "new/deep/b.bin")))]).toEqual([0, 255]);
    (await store.restore(join(cwd, "new/deep/b.bin"), null))._unsafeUnwrap();
    expect(await store.read(join(cwd, "new/deep/b.bin"), 100)).toEqual({ kind: "absent" });
  });

  it("uses a log only when this user's key signed it: one a repository ships, naming a file outside, is refused", async () => {
    const cwd = await temp();
    const home = await temp();
    const place = { cwd, sessionId: ID };
    const store = nodeUndoStore({ dir: ".mm/sessions", key: undoKeyFile(join(home, "state/mm/undo.key")) });
    const hash = (await store.putBlob(place, new TextEncoder().encode("ssh-ed25519 AAAA attacker")))._unsafeUnwrap();
    const turns = [
      { at: 1, question: "q", files: [{ path: join(home, ".ssh/authorized_keys"), before: { kind: "blob", hash, size: 25 }, after: { kind: "absent" } }] },
    ];
    const log = join(cwd, `.mm/sessions/${ID}.undo.json`);
    for (const [text, reason] of [
      [`${JSON.stringify({ format: "mm-undo", version: 1, id: ID, turns })}\n`, /not signed: undo data is only used when this user's mm wrote it$/],
      [signed({ format: "mm-undo", version: 1, id: ID, turns }, new Uint8Array(32).fill(9)), /its signature does not check: this user's mm did not write it$/],
    ] as const) {
      await writeFile(log, text);
      const refused = (await store.loadLog(place))._unsafeUnwrapErr();
      expect(refused).toEqual({ kind: "corrupt", message: expect.stringMatching(reason) });
    }
    // What it writes itself it reads back; the key was made 0600 in a 0700 dir of the user's state.
    (await store.saveLog(place, { turns: turns as never }))._unsafeUnwrap();
    expect((await store.loadLog(place))._unsafeUnwrap().turns).toHaveLength(1);
    expect((await stat(join(home, "state/mm/undo.key"))).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, "state/mm"))).mode & 0o777).toBe(0o700);
    // Another process with the same key file reads it too; one whose key others can read refuses to sign.
    const again = nodeUndoStore({ dir: ".mm/sessions", key: undoKeyFile(join(home, "state/mm/undo.key")) });
    expect((await again.loadLog(place))._unsafeUnwrap().turns).toHaveLength(1);
    await chmod(join(home, "state/mm/undo.key"), 0o644);
    const loose = nodeUndoStore({ dir: ".mm/sessions", key: undoKeyFile(join(home, "state/mm/undo.key")) });
    expect((await loose.loadLog(place))._unsafeUnwrapErr().message).toMatch(/can be read by others \(mode 644\)/);
  });
});
