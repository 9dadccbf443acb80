/**
 * An HTTP proxy on 127.0.0.1 that tunnels `CONNECT host:port` (what undici's proxy agent sends, for
 * http and https targets alike) to 127.0.0.1:port whatever the host, and records each CONNECT line:
 * a test names the model server by a host only the proxy resolves (`model.test`), so an answer proves
 * the request went through it. Anything but CONNECT answers 405.
 */
import { createServer, type IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export type ConnectProxy = {
  readonly url: string;
  /** The `host:port` of every CONNECT received, in order. */
  readonly tunnels: readonly string[];
  readonly close: () => Promise<void>;
};

export const startConnectProxy = async (): Promise<ConnectProxy> => {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => {
    res.writeHead(405, { "content-type": "text/plain" });
    res.end("connect-proxy: CONNECT only\n");
  });
  server.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? "";
    tunnels.push(target);
    const port = Number(target.split(":").at(-1));
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    if (!Number.isInteger(port) || port <= 0) {
      client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      return;
    }
    const upstream = connect(port, "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
};
