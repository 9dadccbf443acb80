/**
 * `fetch` for model requests on `node:http` / `node:https`: the request body goes to the socket as the
 * bytes it is (one UTF-8 encoding of a string body; byte chunks as they are), where Node's fetch
 * measures a string body, encodes it and copies it again into a byte stream (three passes over a
 * 10 MB history, each on fresh memory). The sender's response is a light one over the socket's chunks
 * (light-response.ts); `fetch` makes a web `Response` of it. What the adapter relies on from Node's fetch is kept: connection failures reject
 * with `TypeError("fetch failed", { cause })`, a response that breaks off errors its body with
 * `TypeError("terminated", { cause })` (`UND_ERR_SOCKET`), no response headers or no body byte for
 * 300 s fail with undici's timeout codes, redirects are followed (20 at most; `Authorization` dropped
 * across origins), connections are kept alive (4 s idle) and a kept one the server closed meanwhile is
 * replaced once; no compression is asked for, and a compressed answer is decompressed. Anything else
 * (a `Request` object, a stream or form body, another scheme) goes to the fallback fetch.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Duplex, Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { abortReason, coded, sentResponse, webResponse, type SentResponse } from "./light-response.js";
import { spareConnections, type ConnectOptions } from "./spare-connection.js";

/** Options of {@link nodeHttpFetch}. */
export type NodeHttpFetchOptions = {
  /** No response headers within this time fails the request (undici: 300 s). */
  readonly headersTimeoutMs?: number;
  /** No body byte within this time ends the body with an error (undici: 300 s). */
  readonly bodyTimeoutMs?: number;
  /** Each request's connection, instead of a socket (an in-memory server); no keep-alive then. */
  readonly createConnection?: (url: URL) => Duplex;
  /** The connections the keep-alive agents open, instead of sockets to the URL's host (the warm-up's local socket). */
  readonly agentConnection?: () => Duplex;
  /** What this fetch does not handle goes there (default: Node's own fetch). */
  readonly fallback?: typeof fetch;
};

/** One request as {@link HttpSender} sends it: the body as byte chunks written in order. */
export type HttpRequest = {
  readonly url: URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: readonly Uint8Array[];
  readonly signal?: AbortSignal | null | undefined;
};

/** Sends a request whose body is already bytes; resolves with the response (redirects followed). */
export type HttpSender = (request: HttpRequest) => Promise<SentResponse>;

/** {@link nodeHttpSender}'s sender, which can also open the connection of a first request ahead of it. */
export type NodeHttpSender = HttpSender & {
  /**
   * Opens a connection to `url`'s server in idle time (TCP, and TLS for https), kept for the next
   * request to that server for up to 30 s or until the server closes it: the first request then skips
   * the connect and the handshake. Nothing is sent on it until a request is. Never throws.
   */
  readonly preconnect: (url: URL) => void;
};

const UNDICI_TIMEOUT_MS = 300_000;
const KEEP_ALIVE_IDLE_MS = 4_000;
const MAX_REDIRECTS = 20;
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
/** Bytes queued for a slow reader before the socket is paused. */
const BODY_HIGH_WATER_BYTES = 256 * 1024;


/** How Node's fetch rejects when no response arrives: a TypeError with the reason as its cause. */
const fetchFailed = (cause: unknown): TypeError => new TypeError("fetch failed", { cause });

/** A plain record of lowercase header names, from whatever `init.headers` was. */
const headerRecord = (headers: RequestInit["headers"]): Record<string, string> => {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  const entries: Iterable<[string, string]> =
    headers instanceof Headers ? headers.entries() : Array.isArray(headers) ? (headers as [string, string][]) : Object.entries(headers as Record<string, string | undefined>).filter((e): e is [string, string] => e[1] !== undefined);
  for (const [name, value] of entries) out[name.toLowerCase()] = String(value);
  return out;
};

/** A decompressor for `content-encoding`, or undefined for identity (or one this does not know). */
const decoderFor = (encoding: string | undefined): Transform | undefined => {
  const name = encoding?.trim().toLowerCase();
  if (name === "gzip" || name === "x-gzip") return createGunzip();
  if (name === "deflate") return createInflate();
  if (name === "br") return createBrotliDecompress();
  return undefined;
};

/** The sender behind {@link nodeHttpFetch} (see the module comment). */
export const nodeHttpSender = (options: NodeHttpFetchOptions = {}): NodeHttpSender => {
  const headersTimeoutMs = options.headersTimeoutMs ?? UNDICI_TIMEOUT_MS;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? UNDICI_TIMEOUT_MS;
  // One keep-alive pool per scheme, made on first use (node:https loads TLS).
  let plain: HttpAgent | undefined;
  let secured: HttpsAgent | undefined;
  const agentConnection = options.agentConnection;
  const spares = spareConnections();
  const withConnection = <A extends HttpAgent>(agent: A, secure: boolean): A => {
    const settable = agent as unknown as { createConnection: (options: ConnectOptions, done?: unknown) => Duplex };
    if (agentConnection !== undefined) settable.createConnection = agentConnection;
    else settable.createConnection = spares.offering(secure, settable.createConnection.bind(agent), (agent as unknown as { options: Record<string, unknown> }).options);
    return agent;
  };
  const agentFor = (secure: boolean): HttpAgent =>
    secure
      ? (secured ??= withConnection(new HttpsAgent({ keepAlive: true, timeout: KEEP_ALIVE_IDLE_MS }), true))
      : (plain ??= withConnection(new HttpAgent({ keepAlive: true, timeout: KEEP_ALIVE_IDLE_MS }), false));

  /** One exchange, no redirects: resolves with the response message once its headers arrived. */
  const exchange = (request: HttpRequest, fresh: boolean): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      const { url, signal } = request;
      const secure = url.protocol === "https:";
      const length = request.body.reduce((sum, chunk) => sum + chunk.byteLength, 0);
      const headers: Record<string, string> = { accept: "*/*", ...request.headers };
      if (length > 0 || request.method === "POST" || request.method === "PUT" || request.method === "PATCH") headers["content-length"] = String(length);
      else delete headers["content-length"];
      const connect = options.createConnection;
      const settings: RequestOptions = {
        method: request.method,
        headers,
        ...(connect ? { createConnection: () => connect(url) } : { agent: fresh && agentConnection === undefined ? false : agentFor(secure) }),
      };
      let req: ClientRequest;
      let settled = false;
      const timer = setTimeout(() => {
        settle();
        req.destroy();
        reject(fetchFailed(coded("HeadersTimeoutError", "Headers Timeout Error", "UND_ERR_HEADERS_TIMEOUT")));
      }, headersTimeoutMs);
      timer.unref();
      const onAbort = (): void => {
        settle();
        req.destroy();
        reject(abortReason(signal!));
      };
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        return true;
      };
      try {
        req = (secure ? httpsRequest : httpRequest)(url, settings, (res) => {
          if (settle()) resolve(res);
          else res.destroy();
        });
      } catch (error) {
        // A request Node refuses to make (a header with a character it cannot send): no timer left behind.
        settle();
        reject(error);
        return;
      }
      // The agent's idle timeout is for kept connections; a request's own stays untimed (no timer per chunk).
      let socket: Duplex | undefined;
      req.once("socket", (s) => {
        socket = s;
        s.setTimeout?.(0);
      });
      req.on("error", (error: Error & { code?: string }) => {
        if (!settle()) return;
        // A kept-alive connection (or one opened ahead) the server had closed: tried once more on a new one.
        const kept = req.reusedSocket || (socket !== undefined && spares.handedOut(socket));
        if (kept && !fresh && (error.code === "ECONNRESET" || error.code === "EPIPE") && !signal?.aborted) {
          exchange(request, true).then(resolve, reject);
          return;
        }
        reject(fetchFailed(error));
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      if (request.body.length === 1) req.end(request.body[0]);
      else {
        req.cork();
        for (const chunk of request.body) req.write(chunk);
        req.end();
        process.nextTick(() => req.uncork());
      }
    });

  const send: HttpSender = async (request) => {
    if (request.signal?.aborted) throw abortReason(request.signal);
    let current = request;
    for (let redirects = 0; ; redirects++) {
      const res = await exchange(current, false);
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECT_STATUS.has(status) && location !== undefined) {
        res.resume();
        if (redirects >= MAX_REDIRECTS) throw fetchFailed(new Error("redirect count exceeded"));
        current = redirected(current, status, new URL(location, current.url));
        continue;
      }
      return responseOf(res, current, bodyTimeoutMs);
    }
  };
  const preconnect = (url: URL): void => {
    if (agentConnection !== undefined || options.createConnection !== undefined) return;
    const secure = url.protocol === "https:";
    if (!secure && url.protocol !== "http:") return;
    // Made through the agent, so its connection goes through the same `createConnection` it offers spares from.
    agentFor(secure);
    spares.open(secure, url);
  };
  return Object.assign(send, { preconnect });
};


/** The request a redirect asks for: a GET without body after 303 (or 301/302 of a POST), the same otherwise. */
const redirected = (request: HttpRequest, status: number, url: URL): HttpRequest => {
  const asGet = status === 303 || ((status === 301 || status === 302) && request.method === "POST");
  const headers = { ...request.headers };
  if (asGet) for (const name of ["content-type", "content-length", "content-encoding", "content-language", "content-location"]) delete headers[name];
  if (url.origin !== request.url.origin) for (const name of ["authorization", "cookie", "proxy-authorization"]) delete headers[name];
  return { ...request, url, headers, ...(asGet ? { method: request.method === "HEAD" ? "HEAD" : "GET", body: [] } : {}) };
};

const responseOf = (res: IncomingMessage, request: HttpRequest, bodyTimeoutMs: number): SentResponse => {
  const options = { highWaterBytes: BODY_HIGH_WATER_BYTES, bodyTimeoutMs, signal: request.signal };
  if (NULL_BODY_STATUS.has(res.statusCode ?? 0) || request.method === "HEAD") {
    res.resume();
    return sentResponse(res, null, options);
  }
  const decoder = decoderFor(res.headers["content-encoding"]);
  return sentResponse(res, decoder ? res.pipe(decoder) : res, options);
};

/** Encodes a string body once (small ones through Node's shared pool). */
const bodyBytes = (body: string): Uint8Array[] => (body === "" ? [] : [Buffer.from(body, "utf8")]);

/** The pieces of a `fetch` call this module sends itself, or undefined for the fallback. */
export const ownRequest = (input: string | URL | Request, init: RequestInit | undefined): Omit<HttpRequest, "body"> & { readonly body: string | undefined } | undefined => {
  const body = init?.body;
  const url = typeof input === "string" ? new URL(input) : input instanceof URL ? input : undefined;
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || (body != null && typeof body !== "string") || (init?.redirect ?? "follow") !== "follow") {
    return undefined;
  }
  return { url, method: (init?.method ?? "GET").toUpperCase(), headers: headerRecord(init?.headers), body: body ?? undefined, signal: init?.signal };
};

/** A `fetch` on `send` (see the module comment); what it does not handle goes to `fallback` (Node's fetch). */
export const fetchOn = (send: HttpSender, fallback: typeof fetch = (input, init) => globalThis.fetch(input, init)): typeof fetch =>
  (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const own = ownRequest(input, init);
    if (own === undefined) return fallback(input, init);
    return webResponse(await send({ ...own, body: own.body === undefined ? [] : bodyBytes(own.body) }));
  }) as typeof fetch;

/** A `fetch` for model requests on node:http / node:https (see the module comment). */
export const nodeHttpFetch = (options: NodeHttpFetchOptions = {}): typeof fetch => fetchOn(nodeHttpSender(options), options.fallback);
