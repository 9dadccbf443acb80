/**
 * A stdio server that dies at once (a line on stderr, exit 1) before it reads stdin, while the client
 * is still to write `initialize`: the write fails with EPIPE before the exit and the stderr are read.
 * The race is made certain by holding the event loop right after the spawn until the child is gone.
 * The user is still told the server's own reason: its exit code and the last line of its stderr.
 */
import { describe, expect, it, vi } from "vitest";
import { connectMcpServer, type McpConnectOptions } from "./mcp-connection.js";
import { GroupStdioTransport } from "./group-stdio-transport.js";

const HOLD_MS = 500;

vi.mock("node:child_process", async (importOriginal) => {
  const original = await importOriginal<typeof import("node:child_process")>();
  const spawn = (...args: Parameters<typeof original.spawn>) => {
    const child = original.spawn(...args);
    // Blocks the event loop: the child starts, writes, exits; nothing of it is read here meanwhile.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, HOLD_MS);
    return child;
  };
  return { ...original, spawn };
});

const DIES_AT_ONCE = ["-e", "process.stderr.write('test-mcp: cannot start: TEST_TOKEN is not set\\n'); process.exit(3)"];
const options: McpConnectOptions = { cwd: "/tmp", env: { PATH: process.env.PATH }, clientVersion: "0.11.0", startTimeoutMs: 5000, callTimeoutMs: 5000 };

describe("a stdio server that exits before the client writes initialize", () => {
  it("fails to start with its exit code and its stderr, never a bare write EPIPE", async () => {
    const failed = await connectMcpServer({ kind: "stdio", name: "broken", command: process.execPath, args: DIES_AT_ONCE, env: {} }, options);
    expect(failed._unsafeUnwrapErr().message).toBe("the server exited with code 3 (stderr: test-mcp: cannot start: TEST_TOKEN is not set)");
  });

  it("a write to the dead server waits for its exit and fails with it", async () => {
    const transport = new GroupStdioTransport({ command: process.execPath, args: DIES_AT_ONCE, cwd: "/tmp", env: { PATH: process.env.PATH } });
    await transport.start();
    const sent = await transport.send({ jsonrpc: "2.0", id: 1, method: "ping" }).then(
      () => "sent",
      (error: Error) => error.message,
    );
    expect(sent).toBe("the server exited with code 3");
    expect(transport.stderr()).toContain("TEST_TOKEN is not set");
    await transport.close();
  });

  it("a second close (the client's, then mm's) waits for the same end, stderr read", async () => {
    const transport = new GroupStdioTransport({ command: process.execPath, args: DIES_AT_ONCE, cwd: "/tmp", env: { PATH: process.env.PATH } });
    await transport.start();
    const first = transport.close();
    await transport.close();
    expect(transport.stderr()).toContain("TEST_TOKEN is not set");
    await first;
  });
});
