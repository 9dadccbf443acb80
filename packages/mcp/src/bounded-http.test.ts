/**
 * An MCP server over HTTP that never ends a line: stopped at the bound, with the line that says why.
 * And one redirecting elsewhere: not followed through the bounded fetch (the MCP client's own rule),
 * so its headers never reach the other origin.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startEndlessServer, type EndlessServer } from "../../fake-openai/src/index.js";
import { connectMcpServer } from "./mcp-connection.js";

let server: EndlessServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// A start limit far longer than the bound takes to reach: the failure is the bound's, not the timeout's.
const options = { cwd: "/tmp", env: {}, clientVersion: "0.11.0", startTimeoutMs: 60_000, callTimeoutMs: 5000 };

describe("an MCP server over HTTP past the bounds", () => {
  it.each([
    ["http", "data-line", "sent over 8 MiB of an event stream without ending an event (a line that never ends?)"],
    ["http", "json", "sent an answer of over 16 MiB"],
    ["sse", "comment-line", "sent over 8 MiB of an event stream without ending an event (a line that never ends?)"],
  ] as const)("%s answering with an endless %s is stopped at once", async (kind, line, says) => {
    server = await startEndlessServer({ kind: line, maxMs: 60_000 });
    const connected = await connectMcpServer({ kind, name: "flood", url: `${server.origin}/mcp`, headers: {} }, options);
    expect(connected._unsafeUnwrapErr().message).toBe(`the server ${says}, and was stopped`);
    expect(server.requests).toHaveLength(1);
    await server.idle();
    expect(server.written()).toBeLessThan(64 * 1024 * 1024);
  });
});

describe("an MCP server over HTTP redirecting to another origin", () => {
  it("is not followed: the other server sees no request (nor the headers), the line names where it pointed", async () => {
    const seen: string[] = [];
    const listen = async (handler: Parameters<typeof createServer>[1]) => {
      const s = createServer(handler);
      await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
      return { server: s, origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}` };
    };
    const other = await listen((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
      res.writeHead(500).end();
    });
    const first = await listen((_req, res) => res.writeHead(307, { location: `${other.origin}/mcp` }).end());
    try {
      const connected = await connectMcpServer(
        { kind: "http", name: "moved", url: `${first.origin}/mcp`, headers: { authorization: "Bearer mcp-secret" } },
        options,
      );
      expect(connected._unsafeUnwrapErr().message).toContain(`Redirect to ${other.origin}/mcp not followed`);
      expect(seen).toEqual([]);
    } finally {
      first.server.close();
      other.server.close();
    }
  });
});
