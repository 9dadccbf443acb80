/**
 * One MCP server, connected: started (stdio in its own process group, or Streamable HTTP / SSE),
 * initialised, its tools listed (all pages) and turned into core Tools. The official client is loaded
 * on first use, so an agent without MCP servers never pays for it. Failures are one-line values.
 * Over HTTP every answer is bounded (@mm/core's `boundedFetch`: 16 MiB an event of its stream or a
 * whole JSON answer), as a stdio server's lines are: past it the server is stopped, with the line that
 * says why.
 */
import { ResultAsync } from "neverthrow";
import { boundedFetch, MAX_ANSWER_BYTES, type AnswerTooLarge, type Tool } from "@mm/core";
import { GroupStdioTransport } from "./group-stdio-transport.js";
import { mcpTool, type McpToolInfo } from "./mcp-tool.js";
import type { McpServerSpec } from "./server-spec.js";
import { stderrReason, stderrTail } from "./stderr-reason.js";

export type McpConnectOptions = {
  /** Where a stdio server runs. */
  readonly cwd: string;
  /** The environment a stdio server starts from (the spec's variables are added to it). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** mm's version, told to the server. */
  readonly clientVersion: string;
  /** Longest wait for a server to start and list its tools. */
  readonly startTimeoutMs: number;
  /** Longest wait for one tool call. */
  readonly callTimeoutMs: number;
  /** Stops a server still starting at once (its session closed, the agent exiting): the start then fails. */
  readonly signal?: AbortSignal;
  /** Told when a stdio server's process group starts and ends (to kill it should the agent die). */
  readonly onGroup?: (pgid: number, alive: boolean) => void;
};

/** A connected server and its tools. */
export type McpConnection = {
  readonly name: string;
  readonly tools: readonly Tool[];
  /** The tail of a stdio server's stderr ("" for HTTP). */
  readonly stderr: () => string;
  /** Called once when the server goes away by itself (not through `close`). */
  readonly onLost: (listener: (reason: string) => void) => void;
  /** Closes the connection; a stdio server's whole process group ends. */
  readonly close: () => Promise<void>;
  /** Kills a stdio server's group at once (the agent is exiting). */
  readonly killNow: () => void;
};

/**
 * Why a server did not start: one line for the conversation (with the stderr line that says why,
 * when there is one), and the tail of its stderr for the log ("" when it wrote none).
 */
export type McpStartError = { readonly message: string; readonly stderrTail: string };

/** Thrown inside `connect` to carry the stderr tail out with the line. */
class StartFailure extends Error {
  constructor(
    message: string,
    readonly stderrTail: string,
  ) {
    super(message);
  }
}

type ClientModule = typeof import("@modelcontextprotocol/client");

const oneLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 300);

const transportOf = (spec: McpServerSpec, mcp: ClientModule, options: McpConnectOptions, onExceeded: (error: AnswerTooLarge) => void) => {
  if (spec.kind === "stdio") {
    return new GroupStdioTransport({
      command: spec.command,
      args: spec.args,
      cwd: options.cwd,
      env: { ...options.env, ...spec.env },
      ...(options.onGroup !== undefined ? { onGroup: options.onGroup } : {}),
    });
  }
  const requestInit = { headers: { ...spec.headers } };
  // Every message bounded at 16 MiB however it comes (an event of its stream, a whole JSON answer), as a
  // stdio line is at 16 Mi characters; redirects stay the SDK's, within the origin.
  const fetch = boundedFetch(globalThis.fetch, { eventBytes: MAX_ANSWER_BYTES, onExceeded });
  return spec.kind === "http"
    ? new mcp.StreamableHTTPClientTransport(new URL(spec.url), { requestInit, fetch })
    : new mcp.SSEClientTransport(new URL(spec.url), { requestInit, fetch });
};

const connect = async (spec: McpServerSpec, options: McpConnectOptions): Promise<McpConnection> => {
  const mcp = await import("@modelcontextprotocol/client");
  /** Why an HTTP server was stopped: it sent more than a bound (the line for the start's failure or its loss). */
  let tooLarge: string | undefined;
  let stopBounded: () => void = () => undefined;
  /** Rejects when a bound stopped the server: the start ends then, not at its timeout (an SSE start waits on no request). */
  const bounded = new Promise<never>((_, reject) => (stopBounded = () => reject(new Error(tooLarge))));
  bounded.catch(() => undefined);
  const transport = transportOf(spec, mcp, options, (error) => {
    if (tooLarge !== undefined) return;
    tooLarge = `the server ${error.message}, and was stopped`;
    stopBounded();
    // Whatever waits on it (a call) ends now, not at its timeout.
    void client.close().catch(() => undefined);
  });
  const client = new mcp.Client({ name: "mm", version: options.clientVersion });
  let closing = false;
  let lost: ((reason: string) => void) | undefined;
  const stderr = (): string => (transport instanceof GroupStdioTransport ? transport.stderr() : "");
  const kill = (): void => (transport instanceof GroupStdioTransport ? transport.killNow() : undefined);
  const stopStart = (): void => {
    kill();
    void transport.close().catch(() => undefined);
  };
  options.signal?.addEventListener("abort", stopStart, { once: true });
  try {
    if (options.signal?.aborted) throw new Error("stopped before it started");
    await Promise.race([
      client.connect(transport, { timeout: options.startTimeoutMs, ...(options.signal !== undefined ? { signal: options.signal } : {}) }),
      bounded,
    ]);
    const infos: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await Promise.race([client.listTools(cursor === undefined ? {} : { cursor }, { timeout: options.startTimeoutMs }), bounded]);
      infos.push(...(page.tools as McpToolInfo[]));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    options.signal?.removeEventListener("abort", stopStart);
    client.onclose = () => {
      if (!closing) lost?.(tooLarge ?? "the server stopped");
    };
    const call = (name: string, args: Readonly<Record<string, unknown>>, signal: AbortSignal) =>
      client.callTool({ name, arguments: { ...args } }, { signal, timeout: options.callTimeoutMs, resetTimeoutOnProgress: true });
    return {
      name: spec.name,
      tools: infos.map((info) => mcpTool(spec.name, info, call)),
      stderr,
      onLost: (listener) => void (lost = listener),
      close: async () => {
        closing = true;
        await client.close().catch(() => undefined);
        await transport.close().catch(() => undefined);
      },
      killNow: kill,
    };
  } catch (error) {
    closing = true;
    options.signal?.removeEventListener("abort", stopStart);
    await transport.close().catch(() => undefined);
    const reason = stderrReason(stderr());
    // A server that ended by itself says why (its exit), whichever of the exit or a broken pipe came first.
    const exit = transport instanceof GroupStdioTransport ? transport.exitReason() : undefined;
    throw new StartFailure(
      `${exit !== undefined ? `the server ${exit}` : (tooLarge ?? oneLine(error))}${reason !== undefined ? ` (stderr: ${reason})` : ""}`,
      stderrTail(stderr()),
    );
  }
};

/** Connects one server; the error is one line (with the line of its stderr that says why, when there is one) and its stderr's tail. */
export const connectMcpServer = (spec: McpServerSpec, options: McpConnectOptions): ResultAsync<McpConnection, McpStartError> =>
  ResultAsync.fromPromise(
    connect(spec, options),
    (error): McpStartError => ({ message: oneLine(error), stderrTail: error instanceof StartFailure ? error.stderrTail : "" }),
  );
