// The run whose compiled code becomes the bundle's V8 code cache (and the AI provider's): the bundle
// started by bin/load-bundle.cjs's `writeWarmCodeCache` in a temporary home, answering what an editor
// sends first: `initialize`, `session/new`, then (once the idle-time warm-up is over) one
// `session/prompt`, answered by a canned model on 127.0.0.1 (a few text deltas, the usage). The caches
// then hold the code of a whole turn, not only start-up's: the first turn of every process compiles
// less. Build-time only; the agent itself never contacts this server.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { join } from "node:path";

/** After `session/new`: how long the agent is left idle (its warm-up runs then) before the prompt. */
const IDLE_MS = 1_500;
const TIMEOUT_MS = 60_000;

const chatFrames = () => {
  const head = '{"id":"cache-run","object":"chat.completion.chunk","created":0,"model":"cache-run","choices":[';
  const choice = (delta, finish = null) => `data: ${head}${JSON.stringify({ index: 0, delta, finish_reason: finish })}]}\n\n`;
  return [
    choice({ role: "assistant", content: "" }),
    ...["The ", "cache ", "run."].map((content) => choice({ content })),
    choice({}, "stop"),
    `data: ${head}],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}}\n\n`,
    "data: [DONE]\n\n",
  ];
};

/** A server answering every POST with the canned event stream. */
const cannedModel = () =>
  new Promise((resolve) => {
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(chatFrames().join(""));
      });
    });
    server.listen(0, "127.0.0.1", () => resolve(server));
  });

/**
 * Runs a build under `loadBundle` (bin/load-bundle.cjs) in `home` through the exchange above: `build`
 * names the front and the agent's bundle (relative to dist/) and where their caches go (`frontOut`,
 * `bundleOut`, written as it exits, like `providerCacheOut`). Rejects if the agent fails.
 */
export const warmCacheRun = async ({ loadBundle, build, providerCacheOut, home }) => {
  const server = await cannedModel();
  const baseURL = `http://127.0.0.1:${server.address().port}/v1`;
  try {
    const child = spawn(
      process.execPath,
      ["-e", "require(process.argv[1]).writeWarmCodeCache(JSON.parse(process.argv[2]), process.argv[3])", loadBundle, JSON.stringify(build), providerCacheOut],
      {
        stdio: ["pipe", "pipe", "ignore"],
        cwd: home,
        env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), MM_BASE_URL: baseURL, OPENAI_API_KEY: "sk-cache-run", MM_MODEL: "cache-run" },
      },
    );
    const exited = new Promise((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`the code cache run exited with ${code}`))));
    });
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    const answers = new Map();
    let buffered = "";
    child.stdout.setEncoding("utf8").on("data", (text) => {
      buffered += text;
      let newline;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const message = JSON.parse(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
        if (message.id !== undefined && message.method === undefined) answers.get(message.id)?.(message);
      }
    });
    const request = (id, method, params) =>
      new Promise((resolve, reject) => {
        answers.set(id, (message) => (message.error ? reject(new Error(`${method}: ${JSON.stringify(message.error)}`)) : resolve(message.result)));
        send({ id, method, params });
      });
    const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
    try {
      await request(0, "initialize", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
      const { sessionId } = await request(1, "session/new", { cwd: home, mcpServers: [] });
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const { stopReason } = await request(2, "session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
      if (stopReason !== "end_turn") throw new Error(`the code cache run's turn ended ${stopReason}`);
    } finally {
      child.stdin.end();
      await exited.finally(() => clearTimeout(timer));
    }
  } finally {
    server.close();
  }
};
