/**
 * The MCP servers an editor gives a session ("full" surface): started in parallel when the session
 * starts (or is loaded or resumed), waited for a short while only; those ready by then are the
 * session's tools at once, later ones join it when they are ready. A server that fails to start or
 * stops is told to the editor once (a message chunk), with its stderr's tail in the log, and the
 * session goes on without it. Their processes end with the session, at shutdown and at exit.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { Tool } from "@mm/core";
import { connectMcpServer, stderrReason, stderrTail, type McpConnection, type McpServerSpec } from "@mm/mcp";

/** How long a new session waits for its servers before it answers without the slow ones. */
const MCP_WAIT_MS = 2500;
/** How long a server may take to start and list its tools at all. */
const START_TIMEOUT_MS = 20_000;

export type McpHooks = {
  /** The session's MCP tools changed (a late server joined, or one stopped). */
  readonly toolsChanged: (tools: readonly Tool[]) => void;
  /** Tells the editor one line about a server. */
  readonly tell: (line: string) => void;
  /** One line for the operator's log at the info level. */
  readonly info: (line: string) => void;
};

export type McpSessions = {
  /** Starts the servers; resolves within MCP_WAIT_MS with the tools of those ready by then. */
  readonly start: (key: string, specs: readonly McpServerSpec[], cwd: string, hooks: McpHooks) => Promise<readonly Tool[]>;
  /** Closes the servers started under `key` (the session ended or was replaced). */
  readonly close: (key: string) => Promise<void>;
  /** Closes every server (shutdown). */
  readonly closeAll: () => Promise<void>;
  /** Kills every stdio server's process group at once (exit). */
  readonly killAll: () => void;
};

/** ACP's `McpServer` entries in mm's terms. */
export const specsOf = (servers: readonly acp.McpServer[]): McpServerSpec[] =>
  servers.map((server): McpServerSpec => {
    if ("type" in server && (server.type === "http" || server.type === "sse")) {
      return { kind: server.type, name: server.name, url: server.url, headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])) };
    }
    const stdio = server as acp.McpServerStdio;
    return { kind: "stdio", name: stdio.name, command: stdio.command, args: stdio.args, env: Object.fromEntries(stdio.env.map((e) => [e.name, e.value])) };
  });

export const mcpSessions = (
  env: Readonly<Record<string, string | undefined>>,
  clientVersion: string,
  callTimeoutMs: number,
  onGroup?: (pgid: number, alive: boolean) => void,
): McpSessions => {
  const groups = new Map<string, McpConnection[]>();
  const closed = new Set<string>();
  /** Every connection not yet closed for good: what `killAll` kills at exit, even mid-close. */
  const alive = new Set<McpConnection>();
  const closeOne = async (connection: McpConnection): Promise<void> => {
    await connection.close();
    alive.delete(connection);
  };
  /** What stops the servers of a session still starting: aborted when it closes, and at exit. */
  const starting = new Map<string, AbortController>();
  const closeKey = async (key: string): Promise<void> => {
    closed.add(key);
    starting.get(key)?.abort();
    starting.delete(key);
    const connections = groups.get(key) ?? [];
    groups.delete(key);
    await Promise.all(connections.map(closeOne));
  };
  return {
    start: async (key, specs, cwd, hooks) => {
      closed.delete(key);
      const stop = new AbortController();
      starting.get(key)?.abort();
      starting.set(key, stop);
      const ready: McpConnection[] = [];
      groups.set(key, ready);
      let waiting = true;
      /**
       * The session's MCP tools, each name once: two tools that come to the same name (servers `github`
       * and `github!`, or `a.b` and `a_b` of one server) would share calls, arguments and "Always
       * allow" grants, so the one of the server listed later by the editor is left out (the same one
       * whichever server starts first), and said once in the log with both origins.
       */
      const said = new Set<string>();
      /** Each connection's place in the editor's list: the first listed keeps a name, whichever starts first. */
      const place = new Map<McpConnection, number>();
      const toolsOf = (): readonly Tool[] => {
        const byName = new Map<string, { tool: Tool; server: string }>();
        for (const connection of [...ready].sort((a, b) => (place.get(a) ?? 0) - (place.get(b) ?? 0))) {
          for (const tool of connection.tools) {
            const first = byName.get(tool.spec.name);
            if (first === undefined) {
              byName.set(tool.spec.name, { tool, server: connection.name });
              continue;
            }
            const line = `MCP tool ${tool.spec.name} of server "${connection.name}" left out: its name is that of a tool of server "${first.server}" (mm names them <server>__<tool> in letters, digits and _)`;
            if (!said.has(line)) hooks.info(line);
            said.add(line);
          }
        }
        return [...byName.values()].map((entry) => entry.tool);
      };
      const attempts = specs.map(async (spec, index) => {
        const connected = await connectMcpServer(spec, {
          cwd,
          env,
          clientVersion,
          startTimeoutMs: START_TIMEOUT_MS,
          callTimeoutMs,
          signal: stop.signal,
          ...(onGroup !== undefined ? { onGroup } : {}),
        });
        if (connected.isErr()) {
          // Stopped by its session's close (or the exit) while it started: nothing to tell.
          if (stop.signal.aborted) return;
          const { message, stderrTail: tail } = connected.error;
          hooks.info(`MCP server "${spec.name}" failed to start: ${message}; stderr: ${tail || "(nothing)"}`);
          hooks.tell(`[MCP server "${spec.name}" failed to start: ${message}]`);
          return;
        }
        const connection = connected.value;
        alive.add(connection);
        if (closed.has(key)) return void closeOne(connection);
        place.set(connection, index);
        ready.push(connection);
        hooks.info(`MCP server "${spec.name}" ready: ${connection.tools.length} tool(s)`);
        connection.onLost((reason) => {
          ready.splice(ready.indexOf(connection), 1);
          const why = stderrReason(connection.stderr());
          hooks.info(`MCP server "${spec.name}" stopped (${reason}); stderr: ${stderrTail(connection.stderr()) || "(nothing)"}`);
          hooks.tell(`[MCP server "${spec.name}" stopped${why !== undefined ? ` (stderr: ${why})` : ""}: its tools are gone from this session]`);
          void closeOne(connection);
          hooks.toolsChanged(toolsOf());
        });
        if (!waiting) hooks.toolsChanged(toolsOf());
      });
      await Promise.race([Promise.all(attempts), new Promise((resolve) => setTimeout(resolve, MCP_WAIT_MS).unref())]);
      waiting = false;
      return toolsOf();
    },
    close: closeKey,
    closeAll: async () => {
      await Promise.all([...groups.keys()].map(closeKey));
    },
    killAll: () => {
      for (const stop of starting.values()) stop.abort();
      for (const connection of alive) connection.killNow();
    },
  };
};
