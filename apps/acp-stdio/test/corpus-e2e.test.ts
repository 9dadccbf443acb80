/**
 * The compatibility corpus end to end: every stream of @mm/fake-openai's corpus (the wire shapes of
 * OpenAI, Azure, Ollama, vLLM, LM Studio, llama.cpp, DeepSeek, Mistral, Groq, OpenRouter, xAI, on
 * chat-completions and the Responses API) played to the built mm-acp, driven by the SDK's client:
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

const agentFor = (api: "chat" | "responses", surface: "spec" | "full"): SpawnedAgent => {
  const config = join(cwd, `${api}-${surface}.json`);
  writeFileSync(config, JSON.stringify({ model: { api }, acp: { surface } }));
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
  readonly requests: string;
  readonly asked: number;
};

/** Each entry as one prompt of its own session; what the editor and the server saw of it. */
const play = async (agent: SpawnedAgent, entries: readonly CorpusEntry[]): Promise<Outcome[]> => {
  const outcomes = await agent.run(async (client) => {
    const out: Outcome[] = [];
    for (const entry of entries) {
      const before = fake.requests.length;
      const asked = agent.permissions.length;
      fake.enqueue(frames(entry.frames, entry.end !== undefined ? { end: entry.end } : {}));
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
      out.push({
        ...result,
        text: joined("agent_message_chunk"),
        thought: joined("agent_thought_chunk"),
        requests: JSON.stringify(fake.requests.slice(before).map((r) => r.body)),
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
  if (entry.expect.command !== undefined) {
    expect(outcome.asked, what).toBe(1);
    // The command's output went back to the model as the call's result.
    const word = entry.expect.command.replace(/^echo /, "");
    expect(outcome.requests, what).toContain(`${word}\\n[exit code: 0]`);
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
