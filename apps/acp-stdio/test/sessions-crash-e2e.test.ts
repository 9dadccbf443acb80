/**
 * A crash in the middle of a turn, end to end: the built agent runs a turn of 30 bash calls and is
 * SIGKILLed at a random point of it, 20 times. Each time a second agent loads the session: the load
 * always succeeds, and every tool call the editor had been shown as completed before the kill is in the
 * replay with its output. About 20 s (spawning 41 agents).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI, type RecordedRequest, type Reply } from "@mm/fake-openai";
import { configFile, openSession, promptText, removeTempDirs, sleep, spawnRaw, tempDir, type RawAgent } from "./faults/helpers.js";
import { spawnAgent, stop } from "./spawned-agent.js";

const CALLS = 30;
const ROUNDS = 20;

/** Stateless: the model asks for `echo <n>` until the turn holds 30 tool results, then answers. */
const nextStep = (request: RecordedRequest): Reply => {
  const messages = (request.body as { messages: { role: string }[] }).messages;
  const lastUser = messages.map((m) => m.role).lastIndexOf("user");
  const done = messages.slice(lastUser).filter((m) => m.role === "tool").length;
  return done < CALLS ? toolCalls([{ name: "bash", arguments: { command: `echo step-${done + 1}` } }]) : text("All thirty done.");
};

let server: FakeOpenAI;
beforeAll(async () => {
  server = await startFakeOpenAI([], { defaultReply: nextStep });
});
afterAll(async () => {
  await server.close();
  removeTempDirs();
});

const env = () => ({ MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-crash", MM_MODEL: "fake-model" });

type ToolUpdate = { sessionUpdate: string; toolCallId: string; status?: string; rawOutput?: { output: string } };

/** The tool calls the client has seen completed so far. */
const completedSoFar = (agent: RawAgent): Map<string, string> => {
  const done = new Map<string, string>();
  for (const m of agent.notifications("session/update")) {
    const update = (m.params as { update: ToolUpdate }).update;
    if (update.sessionUpdate === "tool_call_update" && update.status === "completed") done.set(update.toolCallId, update.rawOutput?.output ?? "");
  }
  return done;
};

/** Loads the session in a fresh agent: the replay's completed tool calls by id, with their output. */
const replayed = async (cwd: string, config: string, sessionId: string) => {
  const agent = spawnAgent({ env: env(), cwd, args: ["--config", config] });
  const loaded = await agent.run((client) => client.request("session/load", { sessionId, cwd, mcpServers: [] }));
  await stop(agent);
  const calls = new Map<string, string>();
  for (const { update } of agent.updates) {
    const u = update as unknown as ToolUpdate;
    if (u.sessionUpdate === "tool_call" && u.status === "completed") calls.set(u.toolCallId, u.rawOutput?.output ?? "");
  }
  return { loaded, calls, problems: agent.problems, stderr: agent.stderr() };
};

/** Runs the 30-call turn, killing the agent `killAfterMs` into it (never, when undefined). */
const turnKilledAt = async (killAfterMs: number | undefined) => {
  const cwd = tempDir("crash");
  const config = configFile(cwd);
  const agent = spawnRaw({ cwd, args: ["--config", config], env: env() });
  const sessionId = await openSession(agent, cwd);
  const started = Date.now();
  const answered = agent.request("session/prompt", promptText(sessionId, "do thirty things"));
  let seen: Map<string, string>;
  if (killAfterMs === undefined) {
    await answered;
    seen = completedSoFar(agent);
    agent.child.stdin.end();
    await agent.exited;
  } else {
    await Promise.race([answered, sleep(killAfterMs)]);
    agent.child.kill("SIGKILL");
    seen = completedSoFar(agent);
    await agent.exited;
  }
  return { cwd, config, sessionId, seen, ms: Date.now() - started, stderr: agent.stderr() };
};

describe("a crash in the middle of a turn", () => {
  it(`loses no tool result the editor saw completed: ${ROUNDS} SIGKILLs at random points of a ${CALLS}-call turn`, { timeout: 120_000 }, async () => {
    const whole = await turnKilledAt(undefined);
    expect(whole.seen.size, whole.stderr).toBe(CALLS);
    const after = await replayed(whole.cwd, whole.config, whole.sessionId);
    expect(after.calls.size).toBe(CALLS);
    const turnMs = whole.ms;
    const kills: { at: number; seen: number; replayed: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const at = Math.floor(Math.random() * turnMs * 1.1);
      const run = await turnKilledAt(at);
      const { loaded, calls, problems, stderr } = await replayed(run.cwd, run.config, run.sessionId);
      const context = `round ${round}, killed ${at} ms into a ${turnMs} ms turn; agent's log:\n${run.stderr}\nloader's log:\n${stderr}`;
      expect(loaded, context).toEqual({});
      for (const [id, output] of run.seen) expect(calls.get(id), `${id} in the replay; ${context}`).toBe(output);
      expect(problems).toEqual([]);
      kills.push({ at, seen: run.seen.size, replayed: calls.size });
    }
    // The kills landed all over the turn, not only before or after it.
    expect(kills.some((k) => k.seen > 0 && k.seen < CALLS)).toBe(true);
    process.stderr.write(`crash e2e: turn ${turnMs} ms; kills (ms → seen/replayed): ${kills.map((k) => `${k.at}→${k.seen}/${k.replayed}`).join(" ")}\n`);
  });
});
