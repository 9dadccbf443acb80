import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { explainError } from "./explain-error.js";
import { nodeHttpFetch, nodeHttpSender } from "./node-http-fetch.js";

type Seen = { method: string; url: string; headers: IncomingMessage["headers"]; body: Buffer; socket: Socket };
type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A local server running `handler` on each request once its body is read; `seen` lists what came. */
const serve = async (handler: Handler) => {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks), socket: req.socket };
      seen.push(entry);
      handler(req, res, entry);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, server };
};

const causeOf = (error: unknown): { code?: string; message?: string } => (error as { cause?: { code?: string; message?: string } }).cause ?? {};

describe("nodeHttpFetch", () => {
  it("sends a string body as its UTF-8 bytes with their length, and streams the answer back", async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(201, "Made", { "content-type": "text/event-stream", "x-two": "a" });
      res.write("data: 1\n\n");
      setTimeout(() => res.end("data: 2\n\n"), 10);
    });
    const body = JSON.stringify({ text: "é → ünïcödé 🎉" });
    const response = await nodeHttpFetch()(`${url}/v1/chat`, { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer k" }, body });
    expect(response.status).toBe(201);
    expect(response.statusText).toBe("Made");
    expect(response.ok).toBe(true);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe("data: 1\n\ndata: 2\n\n");
    expect(seen[0]?.method).toBe("POST");
    expect(seen[0]?.url).toBe("/v1/chat");
    expect(seen[0]?.body.toString("utf8")).toBe(body);
    expect(seen[0]?.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(seen[0]?.headers.authorization).toBe("Bearer k");
    expect(seen[0]?.headers["content-type"]).toBe("application/json");
    // Nothing asks for compression: an event stream must arrive as it is written.
    expect(seen[0]?.headers["accept-encoding"]).toBeUndefined();
  });

  it("a body cancelled at once, its bytes already read from the socket, drops them quietly", async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "x".repeat(100_000) } }));
    });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown): void => void uncaught.push(error);
    process.on("uncaughtException", onUncaught);
    try {
      for (let i = 0; i < 5; i++) {
        const response = await nodeHttpFetch()(`${url}/v1/chat`, { method: "POST", body: "{}" });
        await response.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      process.off("uncaughtException", onUncaught);
    }
    expect(uncaught).toEqual([]);
  });

  it("writes a body given as several byte chunks in order (the sender)", async () => {
    const { url, seen } = await serve((_req, res) => res.end("ok"));
    const parts = ["{\"a\":", "[1,2,", "3]}"].map((p) => Buffer.from(p));
    const response = await nodeHttpSender()({ url: new URL(url), method: "POST", headers: {}, body: parts });
    expect(await response.text()).toBe("ok");
    expect(seen[0]?.body.toString()).toBe('{"a":[1,2,3]}');
    expect(seen[0]?.headers["content-length"]).toBe("13");
  });

  it("keeps the connection for the next request, and replaces a kept one the server closed", async () => {
    const { url, seen } = await serve((_req, res) => res.end("ok"));
    const fetch = nodeHttpFetch();
    await (await fetch(url, { method: "POST", body: "1" })).text();
    await (await fetch(url, { method: "POST", body: "2" })).text();
    expect(seen[1]?.socket).toBe(seen[0]?.socket);
    seen[1]!.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await (await fetch(url, { method: "POST", body: "3" })).text()).toBe("ok");
    expect(seen.map((s) => s.body.toString())).toEqual(["1", "2", "3"]);
  });

  it("a refused connection rejects like Node's fetch: TypeError 'fetch failed' caused by ECONNREFUSED", async () => {
    const { url, server } = await serve(() => undefined);
    server.close();
    const error = await nodeHttpFetch()(url, { method: "POST", body: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("fetch failed");
    expect(causeOf(error).code).toBe("ECONNREFUSED");
    expect(explainError(error, { baseURL: url }).message).toMatch(/connection refused/);
  });

  it("a response that breaks off errors its body with 'terminated' (UND_ERR_SOCKET), read as a mid-response break", async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: partial\n\n");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const response = await nodeHttpFetch()(url, { method: "POST", body: "x" });
    const error = await response.text().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("terminated");
    expect(causeOf(error).code).toBe("UND_ERR_SOCKET");
    expect(explainError(error, { baseURL: url })).toEqual({ kind: "network", message: `the connection to the model server at ${url} broke mid-response` });
  });

  it("no response headers in time: 'fetch failed' with undici's headers-timeout code", async () => {
    const { url } = await serve(() => undefined);
    const error = await nodeHttpFetch({ headersTimeoutMs: 50 })(url, { method: "POST", body: "x" }).catch((e: unknown) => e);
    expect((error as Error).message).toBe("fetch failed");
    expect(causeOf(error).code).toBe("UND_ERR_HEADERS_TIMEOUT");
    expect(explainError(error, { baseURL: url }).message).toMatch(/no response headers in time/);
  });

  it("a body that stalls: 'terminated' with undici's body-timeout code; a body that keeps coming does not time out", async () => {
    const { url } = await serve((req, res) => {
      res.writeHead(200);
      if (req.url === "/stall") return void res.write("a");
      let n = 0;
      const timer = setInterval(() => {
        res.write("b");
        if (++n === 8) {
          clearInterval(timer);
          res.end();
        }
      }, 20);
    });
    const fetch = nodeHttpFetch({ bodyTimeoutMs: 60 });
    const stalled = await (await fetch(`${url}/stall`, { method: "POST", body: "x" })).text().catch((e: unknown) => e);
    expect((stalled as Error).message).toBe("terminated");
    expect(causeOf(stalled).code).toBe("UND_ERR_BODY_TIMEOUT");
    expect(await (await fetch(`${url}/steady`, { method: "POST", body: "x" })).text()).toBe("bbbbbbbb");
  });

  it("an abort rejects with the signal's reason, before the answer and while reading it", async () => {
    const { url } = await serve((req, res) => {
      if (req.url === "/never") return;
      res.writeHead(200);
      res.write("start");
    });
    const fetch = nodeHttpFetch();
    const early = new AbortController();
    const pending = fetch(`${url}/never`, { method: "POST", body: "x", signal: early.signal });
    setTimeout(() => early.abort(), 20);
    expect(((await pending.catch((e: unknown) => e)) as Error).name).toBe("AbortError");
    const late = new AbortController();
    const response = await fetch(`${url}/body`, { method: "POST", body: "x", signal: late.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("start");
    late.abort();
    expect(((await reader.read().catch((e: unknown) => e)) as Error).name).toBe("AbortError");
    const already = await fetch(url, { method: "POST", body: "x", signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect((already as Error).name).toBe("AbortError");
  });

  it("follows redirects: 307 sends the same POST again, 303 turns it into a GET, another origin gets no Authorization", async () => {
    const other = await serve((_req, res) => res.end("other"));
    const { url, seen } = await serve((req, res) => {
      if (req.url === "/old") return void res.writeHead(307, { location: "/new" }).end();
      if (req.url === "/see") return void res.writeHead(303, { location: "/new" }).end();
      if (req.url === "/away") return void res.writeHead(308, { location: `${other.url}/there` }).end();
      res.end(`${req.method} ${req.url}`);
    });
    const fetch = nodeHttpFetch();
    const init = { method: "POST", headers: { authorization: "Bearer k", "content-type": "application/json" }, body: "{}" };
    expect(await (await fetch(`${url}/old`, init)).text()).toBe("POST /new");
    expect(seen[1]?.body.toString()).toBe("{}");
    expect(seen[1]?.headers.authorization).toBe("Bearer k");
    expect(await (await fetch(`${url}/see`, init)).text()).toBe("GET /new");
    expect(seen[3]?.body.length).toBe(0);
    expect(await (await fetch(`${url}/away`, init)).text()).toBe("other");
    expect(other.seen[0]?.body.toString()).toBe("{}");
    expect(other.seen[0]?.headers.authorization).toBeUndefined();
  });

  it("decompresses an answer sent compressed although nothing asked for it", async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end(gzipSync("data: squeezed\n\n"));
    });
    expect(await (await nodeHttpFetch()(url, { method: "POST", body: "x" })).text()).toBe("data: squeezed\n\n");
  });

  it("an error status is a response like any other; a 204 has no body", async () => {
    const { url } = await serve((req, res) => {
      if (req.url === "/empty") return void res.writeHead(204).end();
      res.writeHead(429, { "retry-after": "1" }).end('{"error":{"message":"slow down"}}');
    });
    const fetch = nodeHttpFetch();
    const limited = await fetch(url, { method: "POST", body: "x" });
    expect(limited.status).toBe(429);
    expect(limited.ok).toBe(false);
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(await limited.json()).toEqual({ error: { message: "slow down" } });
    const empty = await fetch(`${url}/empty`, { method: "POST", body: "x" });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it("hands what it does not handle to the fallback fetch", async () => {
    const calls: unknown[] = [];
    const fallback = (async (input: unknown) => {
      calls.push(input);
      return new Response("fallback");
    }) as typeof fetch;
    const fetch = nodeHttpFetch({ fallback });
    expect(await (await fetch(new Request("http://127.0.0.1:9/x"))).text()).toBe("fallback");
    expect(await (await fetch("data:text/plain,hi")).text()).toBe("fallback");
    expect(await (await fetch("http://127.0.0.1:9/x", { method: "POST", body: new Uint8Array([1]) })).text()).toBe("fallback");
    expect(calls).toHaveLength(3);
  });
});

describe("nodeHttpSender's preconnect", () => {
  const counting = async (handler: Handler) => {
    const served = await serve(handler);
    const connections: Socket[] = [];
    served.server.on("connection", (socket: Socket) => connections.push(socket));
    return { ...served, connections };
  };
  const ok: Handler = (_req, res) => res.end("ok");
  const until = async (check: () => boolean): Promise<void> => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  const post = (url: string) => ({ url: new URL(`${url}/v1/chat/completions`), method: "POST", headers: {}, body: [Buffer.from("{}")] });

  it("opens the connection ahead, sends nothing on it, and the first request goes on it", async () => {
    const { url, seen, connections } = await counting(ok);
    const send = nodeHttpSender();
    send.preconnect(new URL(`${url}/v1`));
    send.preconnect(new URL(`${url}/v1`));
    await until(() => connections.length > 0);
    expect(connections).toHaveLength(1);
    expect(seen).toHaveLength(0);
    expect(await (await send(post(url))).text()).toBe("ok");
    expect(await (await send(post(url))).text()).toBe("ok");
    expect(connections).toHaveLength(1);
    expect(seen.map((s) => s.socket)).toEqual([connections[0], connections[0]]);
  });

  it("a connection the server closed meanwhile is not used: the request connects anew", async () => {
    const { url, seen, connections } = await counting(ok);
    const send = nodeHttpSender();
    send.preconnect(new URL(url));
    await until(() => connections.length > 0);
    connections[0]!.destroy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await (await send(post(url))).text()).toBe("ok");
    expect(connections).toHaveLength(2);
    expect(seen[0]?.socket).toBe(connections[1]);
  });

  it("a connection closed as the request goes out on it is retried once on a new one", async () => {
    const { url, seen, connections } = await counting(ok);
    const send = nodeHttpSender();
    send.preconnect(new URL(url));
    await until(() => connections.length > 0);
    // The server resets the connection the moment the request's bytes arrive on it.
    connections[0]!.once("data", () => connections[0]!.resetAndDestroy());
    expect(await (await send(post(url))).text()).toBe("ok");
    expect(connections).toHaveLength(2);
    expect(seen.at(-1)?.socket).toBe(connections[1]);
  });

  it("nothing listening: the preconnect fails quietly and the request fails as it would have", async () => {
    const { url, server } = await serve(ok);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    servers.length = 0;
    const send = nodeHttpSender();
    send.preconnect(new URL(url));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const failure = await send(post(url)).catch((error: unknown) => error);
    expect(causeOf(failure).code).toBe("ECONNREFUSED");
  });

  it("a connection the server spoke on before any request (a 408 before closing it) is not used", async () => {
    const { url, seen, connections } = await counting(ok);
    const send = nodeHttpSender();
    send.preconnect(new URL(url));
    await until(() => connections.length > 0);
    connections[0]!.write("HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n\r\n");
    await new Promise((resolve) => setTimeout(resolve, 20));
    const response = await send(post(url));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
    expect(connections).toHaveLength(2);
    expect(seen[0]?.socket).toBe(connections[1]);
  });

  it("a spare for another server is not used", async () => {
    const one = await counting(ok);
    const two = await counting(ok);
    const send = nodeHttpSender();
    send.preconnect(new URL(one.url));
    await until(() => one.connections.length > 0);
    expect(await (await send(post(two.url))).text()).toBe("ok");
    expect(two.connections).toHaveLength(1);
    expect(one.seen).toHaveLength(0);
  });
});

describe("a request Node refuses to make", () => {
  it("rejects at once, is explained as a configuration problem, and leaves no timer behind to fail later", async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown): void => void uncaught.push(error);
    process.on("uncaughtException", onUncaught);
    try {
      const send = nodeHttpSender({ headersTimeoutMs: 30 });
      // An API key read from a file with CRLF line endings.
      const failure = await send({ url: new URL("http://127.0.0.1:9/v1/chat/completions"), method: "POST", headers: { authorization: "Bearer sk-key\r" }, body: [] }).catch((error: unknown) => error);
      expect((failure as { code?: string }).code).toBe("ERR_INVALID_CHAR");
      const explained = explainError(failure, { baseURL: "http://127.0.0.1:9/v1", apiKey: "sk-key\r" });
      expect(explained.kind).toBe("config");
      expect(explained.message).toMatch(/^a request header cannot be sent: .*trailing \\r, in the API key/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", onUncaught);
    }
  });
});
