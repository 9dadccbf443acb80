// A small MCP server for mm's tests, written by hand (JSON-RPC 2.0): stdio by default, Streamable
// HTTP (JSON answers) through `serveHttp`. Tools: echo (read-only), slow, crash (the process dies),
// snap (an image), boom (an error result). `--fail-start` dies at once with a line on stderr;
// `--with-child` starts a long-lived child of its own (a grandchild of the agent, like npx's children).
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";

export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const TOOLS = [
  { name: "echo", description: "Echoes a text.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, annotations: { readOnlyHint: true } },
  { name: "slow", description: "Waits, then answers.", inputSchema: { type: "object", properties: { ms: { type: "number" } } } },
  { name: "crash", description: "Makes the server die.", inputSchema: { type: "object", properties: {} } },
  { name: "snap", title: "Snapshot", description: "Returns an image.", inputSchema: { type: "object", properties: {} }, annotations: { readOnlyHint: true } },
  { name: "boom", description: "Fails.", inputSchema: { type: "object", properties: {} } },
];

const text = (t) => ({ content: [{ type: "text", text: t }] });

const callTool = async ({ name, arguments: args = {} }) => {
  switch (name) {
    case "echo":
      return text(`echo: ${args.text}`);
    case "slow":
      await new Promise((r) => setTimeout(r, Number(args.ms ?? 1000)));
      return text("slept");
    case "crash":
      process.stderr.write("fatal: crashing on purpose\n");
      setTimeout(() => process.exit(3), 10);
      return new Promise(() => undefined);
    case "snap":
      return { content: [{ type: "text", text: "a 1×1 image" }, { type: "image", data: PNG, mimeType: "image/png" }] };
    case "boom":
      return { content: [{ type: "text", text: "boom: it failed" }], isError: true };
    default:
      return { content: [{ type: "text", text: `no tool ${name}` }], isError: true };
  }
};

/** The answer to one message, or undefined for a notification. */
export const handle = async (message) => {
  if (message.id === undefined) return undefined;
  const ok = (result) => ({ jsonrpc: "2.0", id: message.id, result });
  switch (message.method) {
    case "initialize":
      return ok({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "test-mcp", version: "1.0.0" } });
    case "tools/list":
      return ok({ tools: TOOLS });
    case "tools/call":
      return ok(await callTool(message.params));
    case "ping":
      return ok({});
    default:
      return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `no method ${message.method}` } };
  }
};

const serveStdio = () => {
  process.stderr.write("test-mcp: starting on stdio\n");
  let buffer = "";
  process.stdin.setEncoding("utf8").on("data", (chunk) => {
    buffer += chunk;
    for (let at = buffer.indexOf("\n"); at !== -1; at = buffer.indexOf("\n")) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (line.trim() === "") continue;
      void handle(JSON.parse(line)).then((answer) => answer && process.stdout.write(`${JSON.stringify(answer)}\n`));
    }
  });
  process.stdin.on("end", () => process.exit(0));
};

/** A Streamable HTTP server (JSON answers) on 127.0.0.1; resolves with its URL and a close. */
export const serveHttp = () =>
  new Promise((resolve) => {
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", async () => {
        if (req.method !== "POST") return res.writeHead(405).end();
        const answer = await handle(JSON.parse(body));
        if (answer === undefined) return res.writeHead(202).end();
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
      });
    });
    server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${server.address().port}/mcp`, close: () => server.close() }));
  });

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--fail-start")) {
    process.stderr.write("test-mcp: cannot start: TEST_TOKEN is not set\n");
    process.exit(1);
  }
  // A grandchild of the agent that lives on by itself (its command line carries the test's marker too).
  if (process.argv.includes("--with-child")) {
    spawn(process.execPath, ["-e", "setInterval(() => undefined, 1000)", "child-of-test-mcp", ...process.argv.filter((a) => a.startsWith("--marker="))], { stdio: "ignore" });
  }
  serveStdio();
}
