/**
 * The compatibility corpus end to end: every stream of @mm/fake-openai's corpus (the wire shapes of
 * OpenAI, Azure, Ollama, vLLM, LM Studio, llama.cpp, DeepSeek, Mistral, Groq, OpenRouter, xAI, on
 * chat-completions and the Responses API; servers without a finish reason, Kimi's tool calls), played to
 * the built mm-acp as they come and in 7-character writes, and through the AI SDK's own provider where a
 * server has one (`model.provider`), driven by the SDK's client:
 * what the editor is shown (text, thoughts, the stop reason or the error), whether the tool call
 * ran and its output went back. And the error bodies those servers send: the line the user reads,
 * and whether mm retried.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORPUS, ERROR_BODIES, frames, startConnectProxy, startFakeOpenAI, status, text, type CorpusEntry, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop, type SpawnedAgent } from "./spawned-agent.js";

let fake: FakeOpenAI;
let cwd: string;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  cwd = mkdtempSync(join(tmpdir(), "mm-corpus-"));
});
afterAll(async () => {
  await fake.close();
  rmSync(cwd, { recursive: true, force: true });
});

const agentFor = (api: "chat" | "responses", surface: "spec" | "full", provider?: string): SpawnedAgent => {
  const config = join(cwd, `${api}-${surface}${provider !== undefined ? `-${provider}` : ""}.json`);
  writeFileSync(config, JSON.stringify({ model: { api, ...(provider !== undefined ? { provider } : {}) }, acp: { surface } }));
  return spawnAgent({
    env: { MM_BASE_URL: fake.url, OPENAI_API_KEY: "sk-corpus", MM_MODEL: "corpus-model", XDG_CONFIG_HOME: cwd },
    cwd,
    args: ["--config", config, "--log-level", "quiet"],
  });
};

type Outcome = {
  readonly stopReason?: string;
  readonly error?: string;
  readonly text: string;
  readonly thought: string;
  /** The tokens of the turn's first `usage_update`. */
  readonly used?: number;
  readonly requests: string;
  /** How many model requests the turn made (the full surface's GET /models aside). */
  readonly sent: number;
  readonly asked: number;
};

/** The answer as one string cut in `size`-character writes, each written on its own. */
const inWrites = (wire: readonly string[], size: number): string[] => {
  const all = wire.join("");
  return Array.from({ length: Math.ceil(all.length / size) }, (_, i) => all.slice(i * size, (i + 1) * size));
};

/** Each entry as one prompt of its own session; what the editor and the server saw of it (`writes`: the answer cut in writes of that many characters). */
const play = async (agent: SpawnedAgent, entries: readonly CorpusEntry[], writes?: number): Promise<Outcome[]> => {
  const outcomes = await agent.run(async (client) => {
    const out: Outcome[] = [];
    for (const entry of entries) {
      const before = fake.requests.length;
      const asked = agent.permissions.length;
      const end = entry.end !== undefined ? { end: entry.end } : {};
      fake.enqueue(writes === undefined ? frames(entry.frames, end) : frames(inWrites(entry.frames, writes), { ...end, delayMs: 1 }));
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      const result = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] }).then(
        (r) => ({ stopReason: r.stopReason }),
        (e: { data?: { error?: string }; message: string }) => ({ error: e.data?.error ?? e.message }),
      );
      expect(fake.pending(), `${entry.server}: ${entry.shape}: the reply was not taken`).toBe(0);
      const mine = agent.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update);
      const joined = (kind: string) =>
        mine
          .filter((u) => u.sessionUpdate === kind)
          .map((u) => (u as { content: { text: string } }).content.text)
          .join("");
      const usage = mine.find((u) => u.sessionUpdate === "usage_update") as { used?: number } | undefined;
      out.push({
        ...result,
        ...(usage?.used !== undefined ? { used: usage.used } : {}),
        text: joined("agent_message_chunk"),
        thought: joined("agent_thought_chunk"),
        requests: JSON.stringify(fake.requests.slice(before).map((r) => r.body)),
        sent: fake.requests.slice(before).filter((r) => r.method === "POST").length,
        asked: agent.permissions.length - asked,
      });
    }
    return out;
  });
  expect((await stop(agent)).code).toBe(0);
  expect(agent.problems).toEqual([]);
  return outcomes;
};

const check = (entry: CorpusEntry, outcome: Outcome, surface: "spec" | "full"): void => {
  const what = `${entry.server}: ${entry.shape}`;
  expect(outcome.text, what).toBe(entry.expect.text);
  expect(outcome.thought, what).toBe(entry.expect.thought ?? "");
  if (entry.expect.error !== undefined) {
    expect(outcome.error, what).toContain(entry.expect.error);
  } else {
    expect(outcome.error, what).toBeUndefined();
    expect(outcome.stopReason, what).toBe(surface === "full" ? (entry.expect.fullStop ?? entry.expect.stop) : entry.expect.stop);
  }
  const commands = entry.expect.commands ?? (entry.expect.command !== undefined ? [entry.expect.command] : []);
  // A finished answer is never asked for again: one request, and one more after its calls ran.
  if (entry.expect.error === undefined) expect(outcome.sent, `${what}: requests`).toBe(commands.length > 0 ? 2 : 1);
  if (entry.expect.used !== undefined) expect(outcome.used, `${what}: the server's usage`).toBe(entry.expect.used);
  if (commands.length > 0) {
    expect(outcome.asked, what).toBe(commands.length);
    // Each command's output went back to the model as its call's result.
    for (const command of commands) expect(outcome.requests, what).toContain(`${command.replace(/^echo /, "")}\\n[exit code: 0]`);
  } else {
    expect(outcome.asked, `${what}: no tool call may run`).toBe(0);
  }
};

describe.each(["chat", "responses"] as const)("the corpus over %s", (api) => {
  const entries = CORPUS.filter((e) => e.api === api);

  it("shows every server's answer as that server meant it (spec surface)", async () => {
    const outcomes = await play(agentFor(api, "spec"), entries);
    entries.forEach((entry, i) => check(entry, outcomes[i]!, "spec"));
  });

  it("ends a cut-off or filtered answer max_tokens / refusal on the full surface", async () => {
    const cut = entries.filter((e) => e.expect.fullStop !== undefined);
    const outcomes = await play(agentFor(api, "full"), cut);
    cut.forEach((entry, i) => check(entry, outcomes[i]!, "full"));
  });

  it("shows every answer the same when it comes in 7-character writes", async () => {
    const outcomes = await play(agentFor(api, "spec"), entries, 7);
    entries.forEach((entry, i) => check(entry, outcomes[i]!, "spec"));
  });
});

describe("the servers with a provider of their own (model.provider)", () => {
  const entries = CORPUS.filter((e) => e.provider !== undefined);

  it.each(["spec", "full"] as const)("reads their answers through it (%s surface)", async (surface) => {
    expect(entries.length).toBeGreaterThan(0);
    for (const provider of new Set(entries.map((e) => e.provider!))) {
      const mine = entries.filter((e) => e.provider === provider);
      const outcomes = await play(agentFor("chat", surface, provider), mine);
      mine.forEach((entry, i) => check(entry, outcomes[i]!, surface));
    }
  });
});

describe("the servers' error bodies", () => {
  it("are explained in one line the user can act on, and retried only when a retry can help", async () => {
    const agent = agentFor("chat", "spec");
    const seen = await agent.run(async (client) => {
      const out: { error: string; requests: number }[] = [];
      for (const entry of ERROR_BODIES) {
        const before = fake.requests.length;
        const reply = status(entry.status, entry.body, entry.headers);
        fake.enqueue(...(entry.retried ? [reply, reply, reply] : [reply]));
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
        const error = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] }).then(
          () => "no error",
          (e: { data?: { error?: string } }) => e.data?.error ?? "no data",
        );
        out.push({ error, requests: fake.requests.length - before });
      }
      return out;
    });
    await stop(agent);
    ERROR_BODIES.forEach((entry, i) => {
      expect(seen[i]!.error, `${entry.server}: ${entry.shape}`).toContain(entry.says);
      expect(seen[i]!.error).not.toContain("\n");
      expect(seen[i]!.requests, `${entry.server}: ${entry.shape}`).toBe(entry.retried ? 3 : 1);
    });
    expect(fake.pending()).toBe(0);
  });
});

describe("behind a proxy", () => {
  it("sends the model's requests through HTTPS_PROXY / HTTP_PROXY, to a host only the proxy resolves", async () => {
    const proxy = await startConnectProxy();
    try {
      const port = new URL(fake.url).port;
      fake.enqueue(text("through the proxy"));
      const agent = spawnAgent({
        env: {
          MM_BASE_URL: `http://model.test:${port}/v1`,
          OPENAI_API_KEY: "sk-corpus",
          MM_MODEL: "corpus-model",
          XDG_CONFIG_HOME: cwd,
          HTTP_PROXY: proxy.url,
          NO_PROXY: "internal.example",
        },
        cwd,
      });
      const result = await agent.run(async (client) => {
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
        const r = await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
        return { r, text: agent.textOf(sessionId) };
      });
      await stop(agent);
      expect(result).toEqual({ r: { stopReason: "end_turn" }, text: "through the proxy" });
      expect(proxy.tunnels).toEqual([`model.test:${port}`]);
      expect(agent.stderr()).toContain(`proxy http://127.0.0.1:`);
    } finally {
      await proxy.close();
    }
  });
});
