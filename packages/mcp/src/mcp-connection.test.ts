/** connectMcpServer against the hand-written test server: stdio (own process group) and HTTP. */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { counterHex } from "@mm/core/testing";
import { connectMcpServer, type McpConnectOptions } from "./mcp-connection.js";

const SERVER = fileURLToPath(new URL("../test-fixtures/test-mcp-server.mjs", import.meta.url));
const options: McpConnectOptions = { cwd: "/tmp", env: { PATH: process.env.PATH }, clientVersion: "0.11.0", startTimeoutMs: 5000, callTimeoutMs: 5000 };
const stdio = (...args: string[]) => ({ kind: "stdio" as const, name: "test server", command: process.execPath, args: [SERVER, ...args], env: {} });

const ctx = (signal = new AbortController().signal) => ({
  cwd: "/tmp",
  fs: undefined as never,
  shell: undefined as never,
  skills: undefined as never,
  limits: { bashTimeoutMs: 1000, maxOutputBytes: 30_000 },
  signal,
  warn: () => undefined,
});

/** Process ids of the group still running (zombies waiting for a reaper do not count), from `ps`. */
const groupMembers = (pgid: number): string[] =>
  execFileSync("ps", ["-e", "-o", "pid=,pgid=,stat="], { encoding: "utf8" })
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[1] === String(pgid) && !f[2]?.startsWith("Z"))
    .map((f) => f[0]!);

describe("connectMcpServer", () => {
  it("lists a stdio server's tools as core tools, named, titled and kinded, and runs them", async () => {
    const connection = (await connectMcpServer(stdio(), options))._unsafeUnwrap();
    expect(connection.tools.map((t) => [t.spec.name, t.kind, t.gated, t.counts])).toEqual([
      ["test_server__echo", "read", true, "command"],
      ["test_server__slow", "execute", true, "command"],
      ["test_server__crash", "execute", true, "command"],
      ["test_server__snap", "read", true, "command"],
      ["test_server__boom", "execute", true, "command"],
    ]);
    const [echo, , , snap, boom] = connection.tools;
    const call = echo!.prepare({ text: "hi" })._unsafeUnwrap();
    expect(call.title).toBe("test server: echo");
    expect(await call.run(ctx())).toEqual({ status: "completed", output: "echo: hi", diffs: [] });
    expect((await snap!.prepare({})._unsafeUnwrap().run(ctx())).images).toEqual([{ data: expect.any(String), mimeType: "image/png" }]);
    expect(await boom!.prepare({})._unsafeUnwrap().run(ctx())).toMatchObject({ status: "failed", output: "boom: it failed" });
    expect(echo!.prepare("no")._unsafeUnwrapErr()).toBe("input must be an object");
    await connection.close();
  });

  it("cancels a slow call with the turn's signal", async () => {
    const connection = (await connectMcpServer(stdio(), options))._unsafeUnwrap();
    const controller = new AbortController();
    const running = connection.tools[1]!.prepare({ ms: 5000 })._unsafeUnwrap().run(ctx(controller.signal));
    setTimeout(() => controller.abort(), 100);
    expect(await running).toEqual({ status: "failed", output: "[cancelled]", diffs: [] });
    await connection.close();
  });

  it("says once when the server dies, with its stderr", async () => {
    const connection = (await connectMcpServer(stdio(), options))._unsafeUnwrap();
    const reasons: string[] = [];
    connection.onLost((reason) => reasons.push(reason));
    const outcome = await connection.tools[2]!.prepare({})._unsafeUnwrap().run(ctx());
    expect(outcome.status).toBe("failed");
    await new Promise((r) => setTimeout(r, 100));
    expect(reasons).toEqual(["the server stopped"]);
    expect(connection.stderr()).toContain("fatal: crashing on purpose");
    await connection.close();
  });

  it("fails to start with one line holding the last line of the server's stderr", async () => {
    const failed = await connectMcpServer(stdio("--fail-start"), options);
    expect(failed._unsafeUnwrapErr().message).toMatch(/^the server exited with code 1 \(stderr: .*TEST_TOKEN is not set\)$/);
  });

  it("explains a Node server's crash at start by its error, not by the version line Node ends with", async () => {
    const crash = { kind: "stdio" as const, name: "crash", command: process.execPath, args: ["-e", "throw new Error('boom: config missing')"], env: {} };
    expect((await connectMcpServer(crash, options))._unsafeUnwrapErr().message).toBe("the server exited with code 1 (stderr: Error: boom: config missing)");
  });

  it("closes the whole process group of a stdio server, children included", async () => {
    const connection = (await connectMcpServer(stdio("--with-child"), options))._unsafeUnwrap();
    const pid = Number(
      execFileSync("pgrep", ["-f", `${SERVER} --with-child`], { encoding: "utf8" })
        .trim()
        .split("\n")[0],
    );
    const pgid = Number(execFileSync("ps", ["-o", "pgid=", "-p", String(pid)], { encoding: "utf8" }).trim());
    expect(pgid).toBe(pid);
    await new Promise((r) => setTimeout(r, 100));
    expect(groupMembers(pgid).length).toBe(2);
    await connection.close();
    await new Promise((r) => setTimeout(r, 100));
    expect(groupMembers(pgid)).toEqual([]);
  });

  it("speaks Streamable HTTP to a server at a URL", async () => {
    const { serveHttp } = (await import(SERVER)) as { serveHttp: () => Promise<{ url: string; close: () => void }> };
    const http = await serveHttp();
    try {
      const connection = (
        await connectMcpServer({ kind: "http", name: "web", url: http.url, headers: { authorization: `Bearer ${counterHex().hex(8)}` } }, options)
      )._unsafeUnwrap();
      expect(connection.tools.map((t) => t.spec.name)).toContain("web__echo");
      expect((await connection.tools[0]!.prepare({ text: "over http" })._unsafeUnwrap().run(ctx())).output).toBe("echo: over http");
      await connection.close();
    } finally {
      http.close();
    }
  });
});
