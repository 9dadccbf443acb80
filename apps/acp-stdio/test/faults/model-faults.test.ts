/**
 * Model faults: the real model adapter (`aiSdkModel`, the AI SDK over HTTP) against the local fake
 * OpenAI server misbehaving, behind the ACP front end driven by the SDK client over in-memory streams.
 * Each fault ends in a clean retry or a one-line `internal error`; partial text stays in the history;
 * the next prompt works.
 */
import { afterAll, describe, expect, it } from "vitest";
import { aiSdkModel } from "@mm/ai-model";
import { dropAfter, slowText, stall, startFakeOpenAI, status, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { inMemoryAcp } from "../in-memory-acp.js";
import { openSession, promptText, removeTempDirs, sleep, spawnRaw, tempDir, waitFor } from "./helpers.js";

const KEY = "sk-model-faults-0123456789abcdef";

type RpcError = { code: number; message: string; data?: { error?: string } };

/** A wait that ends only when the turn is cancelled. */
const untilCancelled = (signal: AbortSignal): Promise<void> =>
  new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));

/** The app on a model whose waits between retries are taken at once (or as `wait` says) and kept in `waits` (ms). */
const setup = (server: FakeOpenAI | { url: string }, options: { readonly wait?: (signal: AbortSignal) => Promise<void> } = {}) => {
  const waits: number[] = [];
  const sleep = async (ms: number, signal: AbortSignal): Promise<void> => {
    waits.push(ms);
    signal.throwIfAborted();
    await options.wait?.(signal);
  };
  const model = aiSdkModel({ model: "fake-model", baseURL: server.url, apiKey: KEY, api: "chat", sleep });
  return Object.assign(inMemoryAcp({ ports: { model } }), { waits });
};

const failure = (promise: Promise<unknown>): Promise<RpcError> =>
  promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: RpcError) => error,
  );

const expectOneLineInternalError = (error: RpcError, pattern: RegExp) => {
  expect(error.code).toBe(-32603);
  const line = error.data?.error ?? "";
  expect(line).toMatch(pattern);
  expect(line).not.toContain("\n");
  expect(line.length).toBeLessThan(400);
  expect(line).not.toContain(KEY);
};

type Body = { messages: { role: string; content: unknown }[] };
const lastBody = (server: FakeOpenAI) => server.requests.at(-1)!.body as Body;
const assistantTexts = (body: Body) => body.messages.filter((m) => m.role === "assistant").map((m) => JSON.stringify(m.content));
const userTexts = (body: Body) => body.messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));

const prompt = (sessionId: string, text: string) => ({ sessionId, prompt: [{ type: "text" as const, text }] });

let tried = 0;
const count = () => void tried++;

afterAll(() => {
  removeTempDirs();
  console.error(
    `model faults: ${tried} of 14 fault scenarios passed (401, 429 retry, 429 exhausted, 429 long wait + cancel, 500 retry and exhausted, ` +
      "connection refused then back, socket dropped mid-stream, stall + cancel, stall mid-stream + cancel, 400 with a long multi-line body, broken tool arguments, a 200 with an HTML page, a 200 with a JSON error, tool arguments nested 50,000 deep)",
  );
});

describe.concurrent("model faults", () => {
  it("401: one-line internal error at once (no retry), the question dropped, the next prompt works", async () => {
    const server = await startFakeOpenAI([status(401), text("fine now")]);
    const t = setup(server);
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expectOneLineInternalError(await failure(agent.request("session/prompt", prompt(sessionId, "first"))), /401/);
      expect(server.requests).toHaveLength(1);
      expect(await agent.request("session/prompt", prompt(sessionId, "second"))).toEqual({ stopReason: "end_turn" });
    });
    expect(userTexts(lastBody(server)).join()).not.toContain("first");
    expect(t.problems).toEqual([]);
    await server.close();
    count();
  });

  it("429 with retry-after-ms, then 200: a clean retry", async () => {
    const server = await startFakeOpenAI([status(429, undefined, { "retry-after-ms": "20" }), text("after the wait")]);
    const t = setup(server);
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expect(await agent.request("session/prompt", prompt(sessionId, "hi"))).toEqual({ stopReason: "end_turn" });
      expect(t.textOf(sessionId)).toBe("after the wait");
    });
    expect(server.requests).toHaveLength(2);
    await server.close();
    count();
  });

  it("429 with retry-after (seconds) every time: retries exhausted, one-line internal error, next prompt works", async () => {
    const limited = () => status(429, undefined, { "retry-after": "0" });
    const server = await startFakeOpenAI([limited(), limited(), limited(), text("ok")]);
    const t = setup(server);
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expectOneLineInternalError(await failure(agent.request("session/prompt", prompt(sessionId, "hi"))), /429/);
      expect(server.requests).toHaveLength(3);
      expect(await agent.request("session/prompt", prompt(sessionId, "again"))).toEqual({ stopReason: "end_turn" });
    });
    await server.close();
    count();
  });

  it("429 asking for a long wait: a cancel during the wait ends the turn at once", async () => {
    const server = await startFakeOpenAI([status(429, undefined, { "retry-after": "30" }), text("ok")]);
    const t = setup(server, { wait: untilCancelled });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      const running = agent.request("session/prompt", prompt(sessionId, "hi"));
      await waitFor(() => server.requests.length === 1, "the first request");
      await sleep(50);
      const t0 = Date.now();
      await agent.notify("session/cancel", { sessionId });
      expect(await running).toEqual({ stopReason: "cancelled" });
      expect(Date.now() - t0).toBeLessThan(1000);
      expect(t.waits).toEqual([30_000]);
      expect(await agent.request("session/prompt", prompt(sessionId, "again"))).toEqual({ stopReason: "end_turn" });
    });
    await server.close();
    count();
  });

  it("500 then 200: a clean retry; 500 three times: one-line internal error", async () => {
    const fast500 = () => status(500, undefined, { "retry-after-ms": "5" });
    const server = await startFakeOpenAI([fast500(), text("recovered"), fast500(), fast500(), fast500(), text("ok")]);
    const t = setup(server);
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expect(await agent.request("session/prompt", prompt(sessionId, "one"))).toEqual({ stopReason: "end_turn" });
      expectOneLineInternalError(await failure(agent.request("session/prompt", prompt(sessionId, "two"))), /500/);
      expect(await agent.request("session/prompt", prompt(sessionId, "three"))).toEqual({ stopReason: "end_turn" });
    });
    expect(server.requests).toHaveLength(6);
    await server.close();
    count();
  });

  it("connection refused: retried, then a one-line internal error; once the server is back, the next prompt works", async () => {
    const probe = await startFakeOpenAI();
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const t = setup({ url: probe.url });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expectOneLineInternalError(await failure(agent.request("session/prompt", prompt(sessionId, "anyone?"))), /connection refused|cannot reach/);
      expect(t.waits).toEqual([2000, 4000]);
      const server = await startFakeOpenAI([text("back")], { port });
      try {
        expect(await agent.request("session/prompt", prompt(sessionId, "now?"))).toEqual({ stopReason: "end_turn" });
        expect(t.textOf(sessionId)).toBe("back");
      } finally {
        await server.close();
      }
    });
    count();
  });

  it("socket dropped mid-stream: one-line internal error, the partial text kept in history, next prompt works", async () => {
    const server = await startFakeOpenAI([dropAfter(["Hello ", "wor"]), text("again")]);
    const t = setup(server);
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expectOneLineInternalError(await failure(agent.request("session/prompt", prompt(sessionId, "say hello"))), /mid-response|connection|terminated/);
      expect(t.textOf(sessionId)).toBe("Hello wor");
      expect(await agent.request("session/prompt", prompt(sessionId, "and then?"))).toEqual({ stopReason: "end_turn" });
    });
    const body = lastBody(server);
    expect(userTexts(body).join()).toContain("say hello");
    expect(assistantTexts(body).join()).toContain("Hello wor");
    await server.close();
    count();
  });

  it("a stall before any byte, then cancel: cancelled at once, next prompt works", async () => {
    const server = await startFakeOpenAI([stall(60_000), text("awake")]);
    const t = setup(server);
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      const running = agent.request("session/prompt", prompt(sessionId, "wait"));
      await waitFor(() => server.requests.length === 1, "the request");
      await sleep(100);
      const t0 = Date.now();
      await agent.notify("session/cancel", { sessionId });
      expect(await running).toEqual({ stopReason: "cancelled" });
      expect(Date.now() - t0).toBeLessThan(1000);
      expect(await agent.request("session/prompt", prompt(sessionId, "hello?"))).toEqual({ stopReason: "end_turn" });
      expect(t.textOf(sessionId)).toBe("awake");
    });
    await server.close();
    count();
  });

  it("a stall mid-stream, then cancel: cancelled, partial text kept and sent with the next prompt", async () => {
    const server = await startFakeOpenAI([slowText(["part-one ", "part-two ", ...Array.from({ length: 100 }, () => "more ")], 150), text("next")]);
    const t = setup(server);
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      const running = agent.request("session/prompt", prompt(sessionId, "talk slowly"));
      await waitFor(() => t.textOf(sessionId).includes("part-two"), "two chunks");
      await agent.notify("session/cancel", { sessionId });
      expect(await running).toEqual({ stopReason: "cancelled" });
      expect(await agent.request("session/prompt", prompt(sessionId, "go on"))).toEqual({ stopReason: "end_turn" });
    });
    expect(assistantTexts(lastBody(server)).join()).toContain("part-one part-two");
    await server.close();
    count();
  });

  it("a 400 with a long multi-line message: one-line internal error, next prompt works", async () => {
    const longMessage = `context length exceeded\n${"details ".repeat(50_000)}\nmore`;
    const server = await startFakeOpenAI([status(400, { error: { message: longMessage, type: "invalid_request_error", code: null } }), text("fine")]);
    const t = setup(server);
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expectOneLineInternalError(await failure(agent.request("session/prompt", prompt(sessionId, "a"))), /400.*context length exceeded/);
      expect(await agent.request("session/prompt", prompt(sessionId, "b"))).toEqual({ stopReason: "end_turn" });
    });
    await server.close();
    count();
  });

  // Was a bug (the turn ended end_turn with nothing): a 200 that is no event stream is now a one-line
  // bad-response error naming the content type.
  for (const [what, body] of [
    ["an HTML page", "<html><body>502 Bad Gateway</body></html>"],
    ["a JSON error object", { error: { message: "something\nbroke", type: "server_error" } }],
  ] as const) {
    it(`status 200 with ${what} instead of an event stream: one-line internal error`, async () => {
      const server = await startFakeOpenAI([status(200, body), text("fine")]);
      const t = setup(server);
      try {
        await t.run(async (agent) => {
          const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
          expectOneLineInternalError(await failure(agent.request("session/prompt", prompt(sessionId, "a"))), /./);
          expect(await agent.request("session/prompt", prompt(sessionId, "b"))).toEqual({ stopReason: "end_turn" });
        });
        count();
      } finally {
        await server.close();
      }
    });
  }

  // Was a bug (a stack overflow in JSON.stringify lost the question): inputs nested deeper than 64
  // levels are replaced at the model boundary, so the tool refuses them as invalid input.
  it("tool arguments nested 50,000 deep: the call is refused to the model and the turn ends normally (spawned)", async () => {
    const args = `{"command":"echo hi","extra":${"[".repeat(50_000)}${"]".repeat(50_000)}}`;
    const server = await startFakeOpenAI([toolCalls([{ name: "bash", arguments: args }]), text("refused, fine")]);
    const cwd = tempDir("deep-args");
    const agent = spawnRaw({ cwd, env: { MM_BASE_URL: server.url, OPENAI_API_KEY: KEY, MM_MODEL: "fake-model" } });
    try {
      const sessionId = await openSession(agent, cwd);
      const answer = await agent.request("session/prompt", promptText(sessionId, "deep"));
      expect(answer.result).toEqual({ stopReason: "end_turn" });
      const refused = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
      expect(JSON.stringify(refused.messages.filter((m) => m.role === "tool"))).toContain("invalid input for bash");
      count();
    } finally {
      agent.child.kill("SIGKILL");
      await server.close();
    }
  });

  it("broken JSON or a non-object as tool arguments: the call is refused to the model, the turn goes on", async () => {
    const server = await startFakeOpenAI([
      toolCalls([{ name: "bash", arguments: '{"command": "echo hi"' }]),
      toolCalls([{ name: "bash", arguments: "[1,2,3]" }]),
      text("gave up"),
    ]);
    const t = setup(server);
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expect(await agent.request("session/prompt", prompt(sessionId, "run"))).toEqual({ stopReason: "end_turn" });
      expect(t.textOf(sessionId)).toBe("gave up");
    });
    expect(t.permissions).toEqual([]);
    expect(t.shell.requests).toEqual([]);
    const tools = (server.requests[1]!.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === "tool");
    expect(JSON.stringify(tools)).toMatch(/invalid input|must be/);
    await server.close();
    count();
  });
});
