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
    ["http", "data-line", "sent over 16 MiB of an event stream without ending an event (a line that never ends?)"],
    ["http", "json", "sent an answer of over 16 MiB"],
    ["sse", "comment-line", "sent over 16 MiB of an event stream without ending an event (a line that never ends?)"],
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

describe("an MCP server over HTTP whose answer to a tool call never ends a line", () => {
  it("fails the call and is lost with the line that says why", async () => {
    const chunk = Buffer.alloc(64 * 1024, "a");
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (d: Buffer) => (body += d.toString("utf8")));
      req.on("end", () => {
        if (req.method !== "POST") return void res.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
        const answer = (result: unknown) =>
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
        if (message.id === undefined) return void res.writeHead(202).end();
        if (message.method === "initialize")
          return answer({ protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "f", version: "1" } });
        if (message.method === "tools/list") return answer({ tools: [{ name: "flood", inputSchema: { type: "object" } }] });
        // tools/call: a line that never ends, until the client leaves (at most 64 MiB).
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("data: ");
        let sent = 0;
        const pour = (): void => {
          while (!res.destroyed && sent < 64 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", pour);
          }
          res.destroy();
        };
        pour();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const connection = (await connectMcpServer({ kind: "http", name: "flood", url, headers: {} }, options))._unsafeUnwrap();
      const lost = new Promise<string>((resolve) => connection.onLost(resolve));
      const ctx = {
        cwd: "/tmp",
        fs: undefined as never,
        shell: undefined as never,
        skills: undefined as never,
        limits: { bashTimeoutMs: 1000, maxOutputBytes: 30_000 },
        signal: new AbortController().signal,
        warn: () => undefined,
      };
      const outcome = await connection.tools[0]!.prepare({})._unsafeUnwrap().run(ctx);
      expect(outcome.status).toBe("failed");
      expect(await lost).toBe("the server sent over 16 MiB of an event stream without ending an event (a line that never ends?), and was stopped");
      await connection.close();
    } finally {
      server.close();
    }
  });
});
