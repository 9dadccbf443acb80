/**
 * A server on 127.0.0.1 that never ends a line, for the tests of the bounds on what mm reads: every
 * request is answered (200 unless told) with a line that goes on and on (an event stream's `data:` or comment line,
 * or a JSON body), written as fast as the client reads it, until the client goes away, `maxBytes`
 * were written (2 GB by default) or `maxMs` passed (30 s by default). It records each request.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** `data-line`: `data: aaa…`; `comment-line`: `: aaa…` (both `text/event-stream`); `json`: `{"data":[{"id":"aaa…`. */
export type EndlessKind = "data-line" | "comment-line" | "json";

export type EndlessRequest = { readonly method: string; readonly path: string; readonly headers: Readonly<Record<string, string>> };

export type EndlessServer = {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly requests: readonly EndlessRequest[];
  /** Bytes written so far, over every answer. */
  readonly written: () => number;
  /** Resolves once a request came and no answer is being written (each ended: the client left, or a limit). */
  readonly idle: () => Promise<void>;
  readonly close: () => Promise<void>;
};

/** `status`: of every answer, 200 by default (500: an error page that never ends). */
export type EndlessOptions = { readonly kind: EndlessKind; readonly status?: number; readonly maxBytes?: number; readonly maxMs?: number };

const START: Readonly<Record<EndlessKind, string>> = {
  "data-line": "data: ",
  "comment-line": ": ",
  json: '{"object":"list","data":[{"id":"',
};

const flatHeaders = (req: IncomingMessage): Record<string, string> =>
  Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));

export const startEndlessServer = async (options: EndlessOptions): Promise<EndlessServer> => {
  const maxBytes = options.maxBytes ?? 2_000_000_000;
  const maxMs = options.maxMs ?? 30_000;
  const chunk = Buffer.alloc(64 * 1024, "a");
  const requests: EndlessRequest[] = [];
  const sockets = new Set<Socket>();
  let written = 0;
  let active = 0;
  let onIdle: (() => void)[] = [];
  const server = createServer((req, res) => {
    req.resume();
    requests.push({ method: req.method ?? "GET", path: req.url ?? "/", headers: flatHeaders(req) });
    active++;
    let gone = false;
    res.on("close", () => (gone = true));
    const deadline = Date.now() + maxMs;
    const pour = async (): Promise<void> => {
      res.writeHead(options.status ?? 200, { "content-type": options.kind === "json" ? "application/json" : "text/event-stream", "cache-control": "no-cache" });
      res.write(START[options.kind]);
      while (!gone && written < maxBytes && Date.now() < deadline) {
        written += chunk.length;
        if (!res.write(chunk) && !gone) {
          await new Promise<void>((resolve) => {
            const done = (): void => {
              res.off("drain", done).off("close", done);
              resolve();
            };
            res.on("drain", done).on("close", done);
          });
        }
      }
    };
    void pour().finally(() => {
      res.destroy();
      if (--active === 0) for (const resolve of onIdle.splice(0)) resolve();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    written: () => written,
    idle: () => (active === 0 && requests.length > 0 ? Promise.resolve() : new Promise((resolve) => onIdle.push(resolve))),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        onIdle = [];
        server.close(() => resolve());
      }),
  };
};
