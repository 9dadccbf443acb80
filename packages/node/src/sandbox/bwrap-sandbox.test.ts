/**
 * The sandbox for real: bashShell wrapped by bwrapSandbox, run where bubblewrap can confine a
 * command (skipped with the reason elsewhere). The home and the project live under /tmp here, as
 * in most tests, which is the hardest layout: both must show through the private /tmp.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tcpGreeter } from "../../../fake-openai/src/index.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bashShell } from "../shell/bash-shell.js";
import type { ShellRequest } from "../core-types.js";
import { bwrapSandbox, type BwrapSandbox } from "./bwrap-sandbox.js";
import { hiddenHint, NO_NETWORK_HINT, READ_ONLY_HINT } from "./sandbox-hint.js";

const root = mkdtempSync(join(tmpdir(), "mm-bwrap-"));
const home = join(root, "home");
const cwd = join(root, "project");
const cache = join(root, "cache");
for (const dir of [home, cwd, cache, join(home, ".ssh")]) mkdirSync(dir, { recursive: true });
writeFileSync(join(home, ".ssh/id_rsa"), "PRIVATE KEY");

const sandbox: BwrapSandbox = bwrapSandbox({ home, writable: [cache], network: false, hidden: [] });
const checked = await sandbox.ready;
const skip = checked.isErr() ? `bubblewrap cannot run here: ${checked.error.reason}` : undefined;
if (skip !== undefined) console.error(`bwrap-sandbox tests skipped: ${skip}`);

let outside: Awaited<ReturnType<typeof tcpGreeter>>;
let port = 0;
beforeAll(async () => {
  outside = await tcpGreeter("hello from outside\n");
  port = outside.port;
});
afterAll(() => {
  outside.close();
  sandbox.dispose();
  rmSync(root, { recursive: true, force: true });
});

const request = (command: string, overrides: Partial<ShellRequest> = {}): ShellRequest => ({
  command,
  cwd,
  timeoutMs: 10_000,
  maxOutputBytes: 30_000,
  signal: new AbortController().signal,
  ...overrides,
});

const shell = bashShell({ env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, MM_VISIBLE: "yes" }, wrapper: sandbox.wrapper, killGraceMs: 300 });
const run = async (command: string, overrides: Partial<ShellRequest> = {}) => (await shell.run(request(command, overrides)))._unsafeUnwrap();

/** Processes whose command line contains `marker`. */
const processesWith = (marker: string): number[] =>
  readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);

describe.skipIf(skip !== undefined)("bwrapSandbox around bashShell", () => {
  it("writes in the cwd and the writable dirs, with the environment it was given", async () => {
    const result = await run(`echo made > made.txt && echo cached > ${cache}/c.txt && cat made.txt && echo "$MM_VISIBLE $TMPDIR"`);
    expect(result).toMatchObject({ output: "made\nyes /tmp\n", exitCode: 0 });
    expect(readFileSync(join(cwd, "made.txt"), "utf8")).toBe("made\n");
    expect(readFileSync(join(cache, "c.txt"), "utf8")).toBe("cached\n");
  });

  it("refuses a write in the home, read-only, and says so to the model", async () => {
    const result = await run(`echo x > ${home}/planted`);
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toContain("Read-only file system");
    expect(result.output).toContain(READ_ONLY_HINT);
    expect(existsSync(join(home, "planted"))).toBe(false);
  });

  it("masks ~/.ssh: the key cannot be read or listed", async () => {
    const result = await run("cat ~/.ssh/id_rsa; ls ~/.ssh");
    expect(result.exitCode).not.toBe(0);
    expect(result.output).not.toContain("PRIVATE KEY");
    expect(result.output).toContain("Permission denied");
    expect(result.output).toContain(hiddenHint(join(home, ".ssh")));
  });

  it("has no network: a listener on 127.0.0.1 outside cannot be reached", async () => {
    const result = await run(`exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`);
    expect(result.exitCode).not.toBe(0);
    expect(result.output).not.toContain("hello from outside");
    expect(result.output).toContain(NO_NETWORK_HINT);
  });

  it("gives commands a private /tmp that lasts from one command to the next", async () => {
    const outside = join(tmpdir(), `mm-bwrap-outside-${process.pid}`);
    writeFileSync(outside, "host tmp");
    try {
      expect((await run(`cat ${outside}`)).exitCode).not.toBe(0);
      await run("echo kept > /tmp/note");
      expect((await run("cat /tmp/note")).output).toBe("kept\n");
    } finally {
      rmSync(outside, { force: true });
    }
  });

  it("sees only its own processes: the agent's environment is out of reach", async () => {
    const result = await run("echo $PPID; ls /proc | grep -c '^[0-9]'");
    const [ppid, count] = result.output.trim().split("\n").map(Number);
    expect(ppid).toBe(1);
    expect(count).toBeLessThan(6);
  });

  it("a timeout kills the sandboxed command: nothing is left running", async () => {
    const marker = `31.${process.pid}1`;
    const started = Date.now();
    const result = await run(`sleep ${marker}`, { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(processesWith(marker)).toEqual([]);
  });

  it("a cancel gives a sandboxed command that traps SIGTERM the time to clean up, as unsandboxed", async () => {
    const marker = `33.${process.pid}3`;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await run(`trap 'sleep 0.1; echo cleaned > cleaned.txt; exit 3' TERM; sleep ${marker} & wait`, { signal: controller.signal });
    expect(result.cancelled).toBe(true);
    expect(readFileSync(join(cwd, "cleaned.txt"), "utf8")).toBe("cleaned\n");
    expect(processesWith(marker)).toEqual([]);
  });

  it("a cancel kills a sandboxed command that ignores SIGTERM and its children: nothing is left running", async () => {
    const marker = `32.${process.pid}2`;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const result = await run(`trap '' TERM; sleep ${marker} & sleep ${marker}; wait`, { signal: controller.signal });
    expect(result.cancelled).toBe(true);
    expect(processesWith(marker)).toEqual([]);
  });
});

describe("bwrapSandbox without bubblewrap", () => {
  it("refuses every command, saying why and what to install; nothing runs", async () => {
    const missing = bwrapSandbox({ home, writable: [], network: false, hidden: [], bwrapPath: join(root, "no-bwrap") });
    const marker = join(root, "ran");
    const result = await bashShell({ wrapper: missing.wrapper }).run(request(`touch ${marker}`));
    missing.dispose();
    expect(result._unsafeUnwrapErr().message).toMatch(/^the sandbox cannot run, so the command was not run .*not on the PATH\. To fix: install bubblewrap/);
    expect(existsSync(marker)).toBe(false);
  });
});
