/**
 * Every stream the built mm-acp reads has a byte bound, end to end: a model server whose event stream
 * never ends a line (`data: aaa…`, `: aaa…`), an MCP server over HTTP answering `initialize` the same
 * way, and a `GET /models` that never ends. The agent's RSS, sampled from /proc while it happens, stays
 * within 100 MiB of where it was; the turn fails (or the server is stopped) with one line that says
 * why, and nothing is asked twice. And a redirect from the model server: followed within its origin,
 * refused to another (which never sees a request, so never the key), naming where it pointed.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startEndlessServer, startFakeOpenAI, status, text, type EndlessKind, type EndlessServer, type FakeOpenAI } from "@mm/fake-openai";
import { removeTempDirs, tempDir } from "./faults/helpers.js";
import { BIN, spawnAgent, stop, type SpawnedAgent } from "./spawned-agent.js";

const MiB = 1024 * 1024;
const KEY = "sk-bounds-0123456789abcdef";

let endless: EndlessServer | undefined;
let fakes: FakeOpenAI[] = [];
afterEach(async () => {
  await endless?.close();
  endless = undefined;
  await Promise.all(fakes.map((f) => f.close()));
  fakes = [];
});
afterAll(removeTempDirs);

const fake = async (): Promise<FakeOpenAI> => {
  const server = await startFakeOpenAI();
  fakes.push(server);
  return server;
};

/** The flood, bounded itself: 20 s or 1.5 GB at most, and it stops when the agent goes away. */
const flood = async (kind: EndlessKind): Promise<EndlessServer> => {
  endless = await startEndlessServer({ kind, maxMs: 20_000, maxBytes: 1_500_000_000 });
  return endless;
};

const rssOf = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
};

/**
 * Samples the agent's RSS every few milliseconds from now on: the baseline, the peak. Past 600 MiB over
 * the baseline the agent is killed, so the old code's growth never takes the machine's memory.
 */
const sampleRss = (agent: Pick<SpawnedAgent, "child">) => {
  const pid = agent.child.pid!;
  const baseline = rssOf(pid);
  let peak = baseline;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
      if (peak - baseline > 600 * MiB) agent.child.kill("SIGKILL");
    } catch {
      // The agent has exited.
    }
  }, 5);
  return {
    growth: (): number => {
      clearInterval(timer);
      if (process.env.MM_SHOW_RSS) process.stderr.write(`RSS ${Math.round(baseline / MiB)} MiB -> peak ${Math.round(peak / MiB)} MiB\n`);
      return peak - baseline;
    },
  };
};

/** The prompt's JSON-RPC error line (the turn must fail). */
const failedPrompt = (client: Parameters<Parameters<SpawnedAgent["run"]>[0]>[0], sessionId: string) =>
  client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] }).then(
    () => "the turn did not fail",
    (e: { data?: { error?: string } }) => e.data?.error ?? String(e),
  );

/**
 * The growth of an agent's RSS over one ordinary turn (the AI SDK loaded, a short answer): what the
 * flood's growth is measured beside, so the bound is on what the flood adds, on a loaded machine too.
 */
const ordinaryTurnGrowth = async (): Promise<number> => {
  const server = await fake();
  server.enqueue(text("ok"));
  const cwd = tempDir("bounded-control");
  const agent = spawnAgent({ cwd, env: { MM_BASE_URL: server.url, MM_MODEL: "fake-model", OPENAI_API_KEY: KEY, XDG_CONFIG_HOME: cwd } });
  const growth = await agent.run(async (client) => {
    const rss = sampleRss(agent);
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
    return rss.growth();
  });
  await stop(agent);
  return growth;
};

describe("an event stream that never ends a line, from the model server", () => {
  it.each(["data-line", "comment-line"] as const)(
    "an endless %s: the step fails in one line, asked once, the agent's memory flat",
    async (kind) => {
      const control = await ordinaryTurnGrowth();
      const server = await flood(kind);
      const baseURL = `${server.origin}/v1`;
      const cwd = tempDir("bounded-model");
      const agent = spawnAgent({ cwd, env: { MM_BASE_URL: baseURL, MM_MODEL: "fake-model", OPENAI_API_KEY: KEY, XDG_CONFIG_HOME: cwd } });
      let growth = 0;
      const error = await agent.run(async (client) => {
        const rss = sampleRss(agent);
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
        const line = await failedPrompt(client, sessionId);
        await server.idle();
        growth = rss.growth();
        return line;
      });
      await stop(agent);
      expect(error).toBe(
        `the model server at ${baseURL} sent over 8 MiB of an event stream without ending an event (a line that never ends?); stopped, not retried`,
      );
      expect(server.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(1);
      expect(agent.stderr()).not.toContain("retry");
      expect(growth - control).toBeLessThan(100 * MiB);
    },
    60_000,
  );
});

describe("GET /models that never ends", () => {
  it("the answer stops at its bound, asked once, the agent's memory flat; the session offers the configured model", async () => {
    const server = await flood("json");
    const cwd = tempDir("bounded-models");
    const agent = spawnAgent({
      cwd,
      env: { MM_BASE_URL: `${server.origin}/v1`, MM_MODEL: "fake-model", OPENAI_API_KEY: KEY, XDG_CONFIG_HOME: cwd, MM_ACP_SURFACE: "full" },
    });
    let growth = 0;
    await agent.run(async (client) => {
      const rss = sampleRss(agent);
      await client.request("session/new", { cwd, mcpServers: [] });
      await server.idle();
      growth = rss.growth();
    });
    await stop(agent);
    expect(server.requests.map((r) => r.path)).toEqual(["/v1/models"]);
    expect(growth).toBeLessThan(100 * MiB);
    expect(agent.problems).toEqual([]);
  }, 60_000);
});

describe("mm-acp --setup against GET /models that never ends", () => {
  it("says why in one line, the answer read no further than its bound, the process's memory flat", async () => {
    const server = await flood("json");
    const home = tempDir("bounded-setup");
    const child = spawn(process.execPath, [BIN, "--setup"], { cwd: home, env: { PATH: process.env.PATH ?? "", HOME: home } });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (output += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (output += d));
    const closed = new Promise((resolve) => child.on("close", resolve));
    // The baseline once the setup asks its first question (Node and mm loaded).
    await new Promise((resolve) => (child.stdout.once("data", resolve), child.stderr.once("data", resolve)));
    const rss = sampleRss({ child });
    child.stdin.end(`${server.origin}/v1\n\nfake-model\n`);
    await server.idle();
    const growth = rss.growth();
    await closed;
    expect(output).toContain(
      `mm-acp: the server did not answer: the model server at ${server.origin}/v1 sent an answer of over 16 MiB; stopped, not retried; the model's name cannot be checked`,
    );
    expect(server.requests.map((r) => r.path)).toEqual(["/v1/models"]);
    expect(growth).toBeLessThan(100 * MiB);
  }, 60_000);
});

describe("an MCP server over HTTP whose answer to initialize never ends a line", () => {
  it("is stopped at the bound, told in one line, asked once; the agent's memory flat and the turn goes on", async () => {
    const server = await flood("data-line");
    const model = await fake();
    model.enqueue(text("still here"));
    const cwd = tempDir("bounded-mcp");
    const agent = spawnAgent({
      cwd,
      env: { MM_BASE_URL: model.url, MM_MODEL: "fake-model", OPENAI_API_KEY: KEY, XDG_CONFIG_HOME: cwd, MM_ACP_SURFACE: "full" },
    });
    let growth = 0;
    await agent.run(async (client) => {
      const rss = sampleRss(agent);
      const { sessionId } = await client.request("session/new", {
        cwd,
        mcpServers: [{ type: "http", name: "flood", url: `${server.origin}/mcp`, headers: [] }],
      });
      await server.idle();
      growth = rss.growth();
      expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })).toEqual({ stopReason: "end_turn" });
    });
    await stop(agent);
    const told = agent.updates
      .map((u) => u.update)
      .filter((u) => u.sessionUpdate === "agent_message_chunk")
      .map((u) => (u as { content: { text: string } }).content.text.trim())
      .filter((t) => t.includes('MCP server "flood"'));
    expect(told).toEqual([
      '[MCP server "flood" failed to start: the server sent over 16 MiB of an event stream without ending an event (a line that never ends?), and was stopped]',
    ]);
    expect(server.requests).toHaveLength(1);
    expect(growth).toBeLessThan(100 * MiB);
  }, 60_000);
});

describe("a redirect from the model server", () => {
  it("to another origin: refused in one line naming where it pointed; that server never sees a request, so never the key", async () => {
    const [first, elsewhere] = [await fake(), await fake()];
    first.enqueue(status(307, { moved: true }, { location: `${elsewhere.url}/chat/completions?token=abc` }));
    const cwd = tempDir("redirect-away");
    const agent = spawnAgent({ cwd, env: { MM_BASE_URL: first.url, MM_MODEL: "fake-model", OPENAI_API_KEY: KEY, XDG_CONFIG_HOME: cwd } });
    const error = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      return failedPrompt(client, sessionId);
    });
    await stop(agent);
    expect(error).toBe(
      `the model server at ${first.url} redirected (307) to ${elsewhere.url}/chat/completions, another origin: not followed, so the key goes nowhere else (if that is the model server, set model.baseURL to its URL)`,
    );
    expect(elsewhere.requests).toEqual([]);
    expect(first.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(1);
    expect(agent.stderr()).not.toContain(KEY);
  });

  it("within its origin: followed, the request and its key resent there, the turn answered", async () => {
    const server = await fake();
    server.enqueue(status(307, { moved: true }, { location: "/v1/chat/completions?moved=1" }), text("answered after the redirect"));
    const cwd = tempDir("redirect-within");
    const agent = spawnAgent({ cwd, env: { MM_BASE_URL: server.url, MM_MODEL: "fake-model", OPENAI_API_KEY: KEY, XDG_CONFIG_HOME: cwd } });
    const sessionText = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })).toEqual({ stopReason: "end_turn" });
      return agent.textOf(sessionId);
    });
    await stop(agent);
    expect(sessionText).toContain("answered after the redirect");
    const chats = server.requests.filter((r) => r.path === "/v1/chat/completions");
    expect(chats).toHaveLength(2);
    expect(chats.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
  });

  it("within its origin but to an address with a user and password: refused in one line that shows neither, asked once", async () => {
    const server = await fake();
    const withUser = server.url.replace("http://", "http://someone:pass-4242@");
    server.enqueue(status(307, { moved: true }, { location: `${withUser}/chat/completions?token=abc` }));
    const cwd = tempDir("redirect-credentials");
    const agent = spawnAgent({ cwd, env: { MM_BASE_URL: server.url, MM_MODEL: "fake-model", OPENAI_API_KEY: KEY, XDG_CONFIG_HOME: cwd } });
    const error = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      return failedPrompt(client, sessionId);
    });
    await stop(agent);
    expect(error).toBe(
      `the model server at ${server.url} redirected (307) to ${server.url}/chat/completions with a user and password in the address: not followed`,
    );
    expect(server.requests.filter((r) => r.path === "/v1/chat/completions")).toHaveLength(1);
    expect(agent.stderr()).not.toContain("pass-4242");
  });
});
