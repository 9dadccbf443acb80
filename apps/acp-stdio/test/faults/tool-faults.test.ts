/**
 * Tool faults: the real file system and bash adapters (`nodeFileSystem`, `bashShell`) behind the ACP
 * front end, a scripted model asking for the nasty cases. Every call must end with a clear result for
 * the model — never a crash, an exception on the wire or a turn that hangs.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { textReply, toolReply } from "@mm/core/testing";
import { bashShell, nodeFileSystem } from "@mm/node";
import { inMemoryAcp } from "../in-memory-acp.js";
import { removeTempDirs, tempDir } from "./helpers.js";

const MAX_OUTPUT = 30_000;
const dir = tempDir("tools");
let tried = 0;

type ToolResult = { status: string; output: string };

/** Runs one turn where the model calls `name(input)` then says "done"; returns the recorded result. */
const runTool = async (name: string, input: unknown, cwd = dir, timeoutMs = 10_000): Promise<ToolResult & { ms: number }> => {
  const t = inMemoryAcp({
    replies: [toolReply([{ name, input }]), textReply("done")],
    ports: { fs: nodeFileSystem(), shell: bashShell() },
  });
  const t0 = Date.now();
  const result = await t.run(async (agent) => {
    const { sessionId } = await agent.request("session/new", { cwd, mcpServers: [] });
    const answer = await Promise.race([
      agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: `use ${name}` }] }),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`the turn hung (${name} ${JSON.stringify(input).slice(0, 100)})`)), timeoutMs)),
    ]);
    expect(answer).toEqual({ stopReason: "end_turn" });
    const history = t.served.app.agent.session(sessionId)!.history;
    const tool = history.find((m) => m.role === "tool") as ToolResult | undefined;
    expect(tool, "a recorded tool result").toBeDefined();
    return tool!;
  });
  expect(t.problems).toEqual([]);
  // The model was told: its next request carries the result.
  expect(JSON.stringify(t.model.requests[1]?.messages)).toContain(JSON.stringify(result.output).slice(1, 40));
  tried++;
  return { ...result, ms: Date.now() - t0 };
};

const pidsIn = (file: string): number[] => (existsSync(file) ? readFileSync(file, "utf8").split(/\s+/).filter(Boolean).map(Number) : []);
const alive = (pid: number): boolean => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
};

const canChattr = (() => {
  const probe = join(dir, "chattr-probe");
  writeFileSync(probe, "x");
  try {
    execFileSync("chattr", ["+i", probe], { stdio: "ignore" });
    execFileSync("chattr", ["-i", probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const immutable = join(dir, "immutable.txt");

afterAll(() => {
  if (canChattr && existsSync(immutable)) execFileSync("chattr", ["-i", immutable]);
  removeTempDirs();
  console.error(`tool faults: ${tried} faulty tool calls tried, each a clear result to the model, none crashed or hung`);
});

describe.concurrent("read_file", () => {
  it("binary file: refused as binary", async () => {
    writeFileSync(join(dir, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    const r = await runTool("read_file", { path: "image.png" });
    expect(r).toMatchObject({ status: "failed" });
    expect(r.output).toMatch(/binary/);
  });

  it("a 12 MiB file: refused as too large", async () => {
    writeFileSync(join(dir, "huge.log"), Buffer.alloc(12 * 1024 * 1024, "a"));
    const r = await runTool("read_file", { path: "huge.log" });
    expect(r.status).toBe("failed");
    expect(r.output).toMatch(/too large/);
  });

  it("5 MiB of text in 100,000 lines: the first 2,000 lines, bounded", async () => {
    writeFileSync(join(dir, "lines.txt"), Array.from({ length: 100_000 }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n"));
    const r = await runTool("read_file", { path: "lines.txt" });
    expect(r.status).toBe("completed");
    expect(r.output).toMatch(/^\[lines 1-2000 of 100000\]/);
    expect(Buffer.byteLength(r.output)).toBeLessThan(MAX_OUTPUT + 200);
  });

  it("one 5 MiB line: head and tail with a cut marker", async () => {
    writeFileSync(join(dir, "oneline.min.js"), "y".repeat(5 * 1024 * 1024));
    const r = await runTool("read_file", { path: "oneline.min.js" });
    expect(r.status).toBe("completed");
    expect(r.output).toMatch(/bytes cut/);
    expect(Buffer.byteLength(r.output)).toBeLessThan(MAX_OUTPUT + 200);
  });

  it("invalid UTF-8 without NUL bytes: shown with replacement characters", async () => {
    writeFileSync(join(dir, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe]));
    const r = await runTool("read_file", { path: "latin1.txt" });
    expect(r.status).toBe("completed");
    expect(r.output).toContain("caf\ufffd");
  });

  it("missing path, directory, NUL in the path, a 5,000-character path, a symlink loop: each a clear failure", async () => {
    symlinkSync("loop-b", join(dir, "loop-a"));
    symlinkSync("loop-a", join(dir, "loop-b"));
    const cases: [string, RegExp][] = [
      ["does/not/exist.txt", /no such file/],
      [".", /is a directory/],
      ["bad\u0000name", /failed/],
      [`${"d".repeat(5000)}.txt`, /failed/],
      ["loop-a", /failed/],
    ];
    for (const [path, pattern] of cases) {
      const r = await runTool("read_file", { path });
      expect(r.status, path.slice(0, 20)).toBe("failed");
      expect(r.output).toMatch(pattern);
    }
  });

  it("permission denied (even for root: /proc/1/mem), an unreadable /proc file (EIO): clear failures", async () => {
    const denied = await runTool("read_file", { path: "/proc/1/mem" });
    expect(denied.status).toBe("failed");
    expect(denied.output).toMatch(/permission denied|failed/);
    const sleeper = execFileSync("bash", ["-c", "sleep 5 >/dev/null 2>&1 & echo $!"]).toString().trim();
    try {
      const eio = await runTool("read_file", { path: `/proc/${sleeper}/mem` });
      expect(eio.status).toBe("failed");
      expect(eio.output).toMatch(/failed/);
    } finally {
      process.kill(Number(sleeper), "SIGKILL");
    }
  });

  // Reading /dev/ptmx or a FIFO without a writer, or opening a FIFO without a reader for writing,
  // blocks a thread-pool thread forever: the turn hangs, cancel cannot help, and process.exit hangs too.
  it("FIFOs, terminals and devices: refused at once for reading and writing, no hang", async () => {
    execFileSync("mkfifo", [join(dir, "pipe")]);
    symlinkSync("/dev/ptmx", join(dir, "innocent.txt"));
    for (const path of ["pipe", "/dev/ptmx", "innocent.txt", "/dev/zero", "/dev/urandom"]) {
      const r = await runTool("read_file", { path }, dir, 5000);
      expect(r.status, path).toBe("failed");
      expect(r.output, path).toMatch(/not a regular file/);
      expect(r.ms, path).toBeLessThan(3000);
    }
    for (const path of ["pipe", "/dev/ptmx", "innocent.txt"]) {
      const r = await runTool("write_file", { path, content: "x" }, dir, 5000);
      expect(r.status, path).toBe("failed");
      expect(r.output, path).toMatch(/not a regular file/);
      const edit = await runTool("edit_file", { path, old_text: "a", new_text: "b" }, dir, 5000);
      expect(edit.status, path).toBe("failed");
    }
  });

  it("a /proc file reporting size 0 is read in full; an offset past the end is explained", async () => {
    const r = await runTool("read_file", { path: "/proc/self/status" });
    expect(r.status).toBe("completed");
    expect(r.output).toMatch(/^Name:/);
    writeFileSync(join(dir, "short.txt"), "a\nb\n");
    const past = await runTool("read_file", { path: "short.txt", offset: 1000 });
    expect(past.output).toMatch(/past its end/);
  });
});

describe.concurrent("write_file and edit_file", () => {
  it("edit_file: text not found, found twice, empty old_text, missing file, binary file: each explained", async () => {
    writeFileSync(join(dir, "code.ts"), "const a = 1;\nconst a = 1;\nlet b = 2;\n");
    writeFileSync(join(dir, "blob.bin"), Buffer.from([1, 2, 0, 3]));
    const cases: [unknown, RegExp][] = [
      [{ path: "code.ts", old_text: "const z", new_text: "x" }, /not found/],
      [{ path: "code.ts", old_text: "const a = 1;", new_text: "x" }, /found 2 times/],
      [{ path: "code.ts", old_text: "", new_text: "x" }, /empty/],
      [{ path: "nope.ts", old_text: "a", new_text: "b" }, /no such file/],
      [{ path: "blob.bin", old_text: "a", new_text: "b" }, /binary/],
    ];
    for (const [input, pattern] of cases) {
      const r = await runTool("edit_file", input);
      expect(r.status).toBe("failed");
      expect(r.output).toMatch(pattern);
    }
    expect(readFileSync(join(dir, "code.ts"), "utf8")).toBe("const a = 1;\nconst a = 1;\nlet b = 2;\n");
  });

  it("write_file into a directory, under a file, onto a read-only file system, into /proc: clear failures", async () => {
    writeFileSync(join(dir, "plain.txt"), "p");
    mkdirSync(join(dir, "a-dir"), { recursive: true });
    for (const [path, pattern] of [
      ["a-dir", /directory/],
      ["plain.txt/child.txt", /not a directory|failed/],
      ["/sys/mm-faults-test.txt", /failed|denied/],
      ["/proc/self/mm-faults-test", /failed|denied|no such/],
      // Node 20's recursive mkdir spins forever here (ENOENT under an existing directory).
      ["/proc/self/mm-new-dir/deeper/file.txt", /no such file|failed/],
    ] as const) {
      const r = await runTool("write_file", { path, content: "x" });
      expect(r.status, path).toBe("failed");
      expect(r.output).toMatch(pattern);
    }
  });

  it.runIf(canChattr)("an immutable file (EPERM even for root): write_file and edit_file denied, file unchanged", async () => {
    writeFileSync(immutable, "locked\n");
    execFileSync("chattr", ["+i", immutable]);
    const write = await runTool("write_file", { path: immutable, content: "changed" });
    expect(write.status).toBe("failed");
    expect(write.output).toMatch(/permission denied/);
    const edit = await runTool("edit_file", { path: immutable, old_text: "locked", new_text: "open" });
    expect(edit.status).toBe("failed");
    expect(edit.output).toMatch(/permission denied/);
    expect(readFileSync(immutable, "utf8")).toBe("locked\n");
  });
});

describe.concurrent("bash", () => {
  it("a command forking children that ignore SIGTERM, past its timeout: the whole group killed, a clear result", async () => {
    const pids = join(dir, "stubborn.pids");
    const command = `trap '' TERM; echo $$ >> ${pids}; (trap '' TERM; sleep 300 & echo $! >> ${pids}; wait) & sleep 300 & echo $! >> ${pids}; wait`;
    const r = await runTool("bash", { command, timeout_seconds: 1 });
    expect(r.status).toBe("failed");
    expect(r.output).toMatch(/timed out, process group killed/);
    expect(r.ms).toBeLessThan(6000);
    const started = pidsIn(pids);
    expect(started.length).toBeGreaterThanOrEqual(3);
    expect(started.filter(alive)).toEqual([]);
  });

  it("50 MB of output: bounded head and tail, quickly", async () => {
    const r = await runTool("bash", { command: "head -c 50000000 /dev/zero | tr '\\0' 'z'; echo; echo END" });
    expect(r.status).toBe("completed");
    expect(r.output).toMatch(/bytes cut/);
    expect(r.output).toMatch(/END\n\[exit code: 0\]$/);
    expect(Buffer.byteLength(r.output)).toBeLessThan(MAX_OUTPUT + 200);
  });

  it("binary output (NULs, invalid UTF-8, escape sequences): a valid result on the wire", async () => {
    const r = await runTool("bash", { command: "head -c 4096 /dev/urandom; printf '\\033[2J\\0\\377'" });
    expect(r.status).toBe("completed");
    expect(r.output).toMatch(/\[exit code: 0\]$/);
  });

  it("a command waiting on stdin ends at once; non-zero exit and death by signal are reported", async () => {
    const stdin = await runTool("bash", { command: "cat; read line; echo read-done" });
    expect(stdin.output).toMatch(/read-done/);
    expect(stdin.ms).toBeLessThan(3000);
    const exit = await runTool("bash", { command: "echo oops >&2; exit 3" });
    expect(exit).toMatchObject({ status: "failed" });
    expect(exit.output).toBe("oops\n[exit code: 3]");
    const killed = await runTool("bash", { command: "kill -9 $$" });
    expect(killed.status).toBe("failed");
    expect(killed.output).toMatch(/killed by SIGKILL/);
  });

  it("the session's cwd removed: a clear failure, no crash", async () => {
    const gone = tempDir("gone");
    rmSync(gone, { recursive: true });
    const r = await runTool("bash", { command: "pwd" }, gone);
    expect(r.status).toBe("failed");
    expect(r.output).toMatch(/working directory does not exist/);
  });

  it("a background job holding the output pipe (same group): ends at the timeout, the job killed", async () => {
    const pids = join(dir, "holder.pids");
    const r = await runTool("bash", { command: `sleep 300 & echo $! > ${pids}; echo started`, timeout_seconds: 1 });
    expect(r.output).toMatch(/started/);
    expect(r.output).toMatch(/timed out/);
    expect(r.ms).toBeLessThan(5000);
    expect(pidsIn(pids).filter(alive)).toEqual([]);
  });

  it("a job escaping the group with setsid and holding the pipe: the turn still ends (the escapee is a known limit)", async () => {
    const pids = join(dir, "escapee.pids");
    try {
      const r = await runTool("bash", { command: `setsid sleep 300 & echo $! > ${pids}; echo started`, timeout_seconds: 1 });
      expect(r.output).toMatch(/started/);
      expect(r.ms).toBeLessThan(5000);
    } finally {
      for (const pid of pidsIn(pids)) if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("file-mode surprises: an unreadable cwd is still usable by root, chmod 000 file readable by root (documented)", async () => {
    const locked = join(dir, "locked");
    mkdirSync(locked, { recursive: true });
    writeFileSync(join(locked, "f.txt"), "root reads me\n");
    chmodSync(join(locked, "f.txt"), 0o000);
    const r = await runTool("read_file", { path: "f.txt" }, locked);
    expect(r.status).toBe(process.getuid?.() === 0 ? "completed" : "failed");
  });
});
