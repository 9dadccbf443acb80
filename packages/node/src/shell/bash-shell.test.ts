import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bashShell } from "./bash-shell.js";
import type { ShellRequest } from "../core-types.js";

const made: string[] = [];
/** A temporary directory removed after the test. */
const tempDir = async (): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), "mm-sh-"));
  made.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const request = (command: string, overrides: Partial<ShellRequest> = {}): ShellRequest => ({
  command,
  cwd: tmpdir(),
  timeoutMs: 10_000,
  maxOutputBytes: 30_000,
  signal: new AbortController().signal,
  ...overrides,
});

const run = async (command: string, overrides: Partial<ShellRequest> = {}) => (await bashShell().run(request(command, overrides)))._unsafeUnwrap();

/** Running and not a zombie. */
const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};

const pidIn = (output: string): number => Number(/(\d+)/.exec(output)?.[1]);

describe("bashShell", () => {
  it("hands the output to the request's listener as it comes, in order, whatever the cap of the final output", async () => {
    const seen: { text: string; at: number }[] = [];
    const started = performance.now();
    const result = await run("echo one; sleep 0.3; echo two >&2; sleep 0.3; head -c 5000 /dev/zero | tr '\\0' x; echo; echo three", {
      maxOutputBytes: 100,
      onOutput: (text) => seen.push({ text, at: performance.now() - started }),
    });
    const all = seen.map((s) => s.text).join("");
    expect(all).toBe(`one\ntwo\n${"x".repeat(5000)}\nthree\n`);
    expect(seen[0]!.text).toBe("one\n");
    expect(seen.find((s) => s.text.startsWith("two"))!.at - seen[0]!.at).toBeGreaterThan(200);
    expect(result.output).toMatch(/^one\ntwo\nx+\n\[… \d+ bytes cut …\]\nx+\nthree\n$/);
  });

  it("never splits a character between two texts, and a listener that throws does not disturb the command", async () => {
    const texts: string[] = [];
    const result = await run("printf '\\xc3'; sleep 0.2; printf '\\xa9t\\xc3\\xa9\\n'", {
      onOutput: (text) => {
        texts.push(text);
        throw new Error("listener failed");
      },
    });
    expect(texts.join("")).toBe("été\n");
    expect(texts.every((t) => !t.includes("\ufffd"))).toBe(true);
    expect(result).toMatchObject({ output: "été\n", exitCode: 0 });
  });

  it("returns the exit code and the output", async () => {
    expect(await run("echo out; exit 7")).toEqual({ output: "out\n", exitCode: 7, signal: null, timedOut: false, cancelled: false });
  });

  it("runs in the given cwd, as bash, with the given env", async () => {
    const dir = await tempDir();
    const shell = bashShell({ env: { PATH: process.env.PATH, MM_PROBE: "probe" } });
    const result = (await shell.run(request('pwd; echo "$MM_PROBE"; echo "${BASH_VERSION:+bash}"', { cwd: dir })))._unsafeUnwrap();
    expect(result.output).toBe(`${dir}\nprobe\nbash\n`);
    await rm(dir, { recursive: true });
  });

  it("merges stdout and stderr in the order they were written", async () => {
    const result = await run("for i in 1 2 3 4 5; do echo o$i; echo e$i >&2; done");
    expect(result.output).toBe("o1\ne1\no2\ne2\no3\ne3\no4\ne4\no5\ne5\n");
  });

  it("gives the command no stdin", async () => {
    expect(await run("cat; echo done")).toMatchObject({ output: "done\n", exitCode: 0 });
  });

  it("reports bash's own errors as output with its exit code", async () => {
    const result = await run("'unterminated");
    expect(result.exitCode).toBe(2);
    expect(result.output).toContain("unexpected EOF");
  });

  it("keeps head and tail of 50 MB of output with bounded memory", async () => {
    const before = process.memoryUsage().rss;
    const result = await run("head -c 50000000 /dev/zero | tr '\\0' a; echo; echo END", { maxOutputBytes: 1000 });
    const grown = process.memoryUsage().rss - before;
    expect(result.exitCode).toBe(0);
    expect(result.output.startsWith(`${"a".repeat(500)}\n[… ${50_000_005 - 1000} bytes cut …]\n`)).toBe(true);
    expect(result.output.endsWith("a\nEND\n")).toBe(true);
    expect(result.output.length).toBeLessThan(1100);
    expect(grown).toBeLessThan(100 * 1024 * 1024);
  });

  it("decodes a multibyte character split across writes", async () => {
    expect((await run("printf '\\xe2'; sleep 0.05; printf '\\x82\\xac\\n'")).output).toBe("€\n");
  });

  it("kills the whole group on timeout, grandchildren included", async () => {
    const started = Date.now();
    const result = await run("sleep 30 & echo $!; wait", { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result).toMatchObject({ timedOut: true, cancelled: false, exitCode: null, signal: "SIGTERM" });
    expect(isRunning(pidIn(result.output))).toBe(false);
  });

  it("on timeout, kills the jobs that moved to groups of their own inside the command's session (set -m, GNU timeout)", async () => {
    const result = await run("set -m; sleep 31 & echo $!; timeout 40 sleep 32 & echo $!; wait", { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    const pids = [...result.output.matchAll(/\d+/g)].map((match) => Number(match[0]));
    expect(pids).toHaveLength(2);
    for (const pid of pids) {
      for (let tries = 0; tries < 40 && isRunning(pid); tries++) await new Promise((r) => setTimeout(r, 25));
      expect(isRunning(pid)).toBe(false);
    }
  });

  it("signalAll reaches a job a returned command left in a group of its own; the session is untracked once empty", async () => {
    const told: string[] = [];
    const reaper = { track: (id: number) => void told.push(`+ ${id}`), untrack: (id: number) => void told.push(`- ${id}`), removeAtEnd: () => undefined };
    const shell = bashShell({ reaper });
    const result = (await shell.run(request("set -m; sleep 33 >/dev/null 2>&1 & echo $!")))._unsafeUnwrap();
    const job = pidIn(result.output);
    expect(isRunning(job)).toBe(true);
    expect(told).toHaveLength(1);
    const session = told[0]!.slice(2);
    expect(shell.signalAll("SIGKILL")).toBe(1);
    for (let tries = 0; tries < 40 && isRunning(job); tries++) await new Promise((r) => setTimeout(r, 25));
    expect(isRunning(job)).toBe(false);
    for (let tries = 0; tries < 200 && !told.includes(`- ${session}`); tries++) await new Promise((r) => setTimeout(r, 25));
    expect(told).toEqual([`+ ${session}`, `- ${session}`]);
  });

  it("waits for a background child holding the output, until the timeout kills it", async () => {
    const result = await run("sleep 30 & echo $!", { timeoutMs: 300 });
    expect(result).toMatchObject({ timedOut: true, exitCode: 0 });
    expect(isRunning(pidIn(result.output))).toBe(false);
  });

  it("does not wait for a background child that let go of the output", async () => {
    const started = Date.now();
    const result = await run("sleep 30 >/dev/null 2>&1 & echo $!");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    process.kill(pidIn(result.output), "SIGKILL");
  });

  it("on abort, kills a group that ignores SIGTERM with SIGKILL after the grace", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const result = await run("trap '' TERM; (trap '' TERM; sleep 30) & echo $!; wait", { signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result).toMatchObject({ cancelled: true, timedOut: false, exitCode: null, signal: "SIGKILL" });
    // A SIGKILLed process can still show as running for a moment on a loaded machine: look again briefly.
    const pid = pidIn(result.output);
    for (let tries = 0; tries < 20 && isRunning(pid); tries++) await new Promise((r) => setTimeout(r, 25));
    expect(isRunning(pid)).toBe(false);
  });

  it("does not hang on a process outside the group holding the output", async () => {
    const started = Date.now();
    const result = await run("setsid sleep 30 & echo $!; wait", { timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.timedOut).toBe(true);
    process.kill(pidIn(result.output), "SIGKILL");
  });

  it("answers cancelled without running when already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const dir = await tempDir();
    const result = await run("touch ran", { signal: controller.signal, cwd: dir });
    expect(result).toEqual({ output: "", exitCode: null, signal: null, timedOut: false, cancelled: true });
    expect(existsSync(join(dir, "ran"))).toBe(false);
    await rm(dir, { recursive: true });
  });

  it("fails spawn with a clear message when the cwd is missing or a file", async () => {
    const missing = await bashShell().run(request("true", { cwd: "/definitely/not/here" }));
    expect(missing._unsafeUnwrapErr()).toEqual({ kind: "spawn", message: "working directory does not exist: /definitely/not/here" });
    const file = join(await tempDir(), "f");
    await writeFile(file, "");
    const notDir = await bashShell().run(request("true", { cwd: file }));
    expect(notDir._unsafeUnwrapErr()).toEqual({ kind: "spawn", message: `working directory is not a directory: ${file}` });
  });

  it("fails spawn when bash cannot be started", async () => {
    const result = await bashShell({ bashPath: "/no/such/bash" }).run(request("true"));
    expect(result._unsafeUnwrapErr().kind).toBe("spawn");
    expect(result._unsafeUnwrapErr().message).toContain("ENOENT");
  });

  it("fails spawn instead of throwing on a command Node refuses", async () => {
    const result = await bashShell().run(request("echo \0"));
    expect(result._unsafeUnwrapErr().kind).toBe("spawn");
  });
});
