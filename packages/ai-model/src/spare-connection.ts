/**
 * The connection opened ahead of a model request (`nodeHttpSender`'s `preconnect`), at most one: made
 * with the keep-alive agent's own `createConnection` and options, offered to the agent when it
 * connects to the same server, and dropped when the server closes it or says anything on it, when it
 * fails, or after {@link SPARE_MS}. A request it was handed to is retried once on a new connection if
 * the server reset it at that moment, as a kept-alive one is.
 */
import { isIP, type Socket } from "node:net";
import type { Duplex } from "node:stream";

/** How long a connection opened ahead of a request waits for it. */
const SPARE_MS = 30_000;

/** What an agent's `createConnection` is given (the fields used here). */
export type ConnectOptions = { readonly host?: string | null; readonly port?: number | string | null; readonly servername?: string };

/** The spare of one sender (see the module comment). */
export const spareConnections = () => {
  let spare: { readonly key: string; readonly socket: Socket; readonly drop: () => void } | undefined;
  const given = new WeakSet<object>();
  const connectors = new Map<boolean, { readonly connect: (options: ConnectOptions) => Duplex; readonly agentOptions: Readonly<Record<string, unknown>> }>();
  const keyOf = (secure: boolean, host: string | null | undefined, port: number | string | null | undefined): string =>
    `${secure ? "https" : "http"}://${host ?? "localhost"}:${Number(port ?? (secure ? 443 : 80))}`;

  const take = (key: string): Socket | undefined => {
    const found = spare;
    if (found === undefined || found.key !== key) return undefined;
    spare = undefined;
    found.drop();
    // The server said something on it before any request (a 408 before closing): not for a request.
    if (found.socket.destroyed || !found.socket.writable || found.socket.readableLength > 0 || found.socket.readableEnded) {
      found.socket.destroy();
      return undefined;
    }
    found.socket.ref();
    given.add(found.socket);
    return found.socket;
  };

  return {
    /** An agent's `createConnection` that hands out the spare for its server, else connects as `connect` does. */
    offering: (secure: boolean, connect: (options: ConnectOptions, done?: unknown) => Duplex, agentOptions: Readonly<Record<string, unknown>>) => {
      connectors.set(secure, { connect, agentOptions });
      return (options: ConnectOptions, done?: unknown): Duplex => take(keyOf(secure, options.host, options.port)) ?? connect(options, done);
    },
    /** Opens the spare for `url`'s server (replacing another server's); a failure only drops it. */
    open: (secure: boolean, url: URL): void => {
      const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
      const key = keyOf(secure, host, url.port || undefined);
      if (spare?.key === key) return;
      spare?.socket.destroy();
      spare = undefined;
      const connector = connectors.get(secure);
      if (connector === undefined) return;
      try {
        // With the agent's own options (no-delay, keep-alive), as the agent connects.
        const socket = connector.connect({ ...connector.agentOptions, host, port: Number(url.port || (secure ? 443 : 80)), ...(secure && isIP(host) === 0 ? { servername: host } : {}) }) as Socket;
        const gone = (): void => {
          if (spare?.socket !== socket) return;
          spare.drop();
          spare = undefined;
          socket.destroy();
        };
        const timer = setTimeout(gone, SPARE_MS);
        timer.unref();
        socket.on("error", gone);
        socket.on("end", gone);
        socket.on("close", gone);
        socket.on("data", gone);
        socket.unref();
        spare = {
          key,
          socket,
          drop: () => {
            clearTimeout(timer);
            socket.off("error", gone);
            socket.off("end", gone);
            socket.off("close", gone);
            socket.off("data", gone);
          },
        };
      } catch {
        spare = undefined;
      }
    },
    /** Whether `socket` was a spare handed to a request (its failure is retried as a kept connection's is). */
    handedOut: (socket: object): boolean => given.has(socket),
  };
};
