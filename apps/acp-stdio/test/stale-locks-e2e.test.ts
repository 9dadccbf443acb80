/**
 * Locks left by a killed process (issue 40), through the built binary: a SIGKILLed mm leaves its
 * sessions' `<id>.lock` behind. The next process that uses the sessions dir (its first session there)
 * or lists it (`session/list`) removes the locks whose process is gone, says so on stderr, and leaves
 * a live holder's lock alone.
 */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAI } from "@mm/fake-openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stop, type SpawnedAgent } from "./spawned-agent.js";
import { sessionsCwd, spawnInSessionsCwd } from "./sessions-cwd.js";

let server: FakeOpenAI;
let cwd: string;
beforeEach(async () => {
  server = await startFakeOpenAI();
  cwd = sessionsCwd("stale-locks");
});
afterEach(async () => {
  await server.close();
  rmSync(cwd, { recursive: true, force: true });
});

const spawn = (surface: "spec" | "full") => spawnInSessionsCwd(cwd, server.url, surface);
const lockOf = (id: string) => join(cwd, ".mm", "sessions", `${id}.lock`);

/** A session opened by a process then SIGKILLed: its id, its lock left behind. */
const killedHolder = async (surface: "spec" | "full"): Promise<string> => {
  const agent = spawn(surface);
  const sessionId = await agent.run(async (client) => (await client.request("session/new", { cwd, mcpServers: [] })).sessionId);
  expect(existsSync(lockOf(sessionId))).toBe(true);
  agent.child.kill("SIGKILL");
  expect(await agent.exited).toMatchObject({ signal: "SIGKILL" });
  expect(existsSync(lockOf(sessionId))).toBe(true);
  return sessionId;
};

/** A process holding a session of its own (left running); the agent and the session's id. */
const liveHolder = async (surface: "spec" | "full"): Promise<{ agent: SpawnedAgent; sessionId: string }> => {
  const agent = spawn(surface);
  const sessionId = await agent.run(async (client) => (await client.request("session/new", { cwd, mcpServers: [] })).sessionId);
  return { agent, sessionId };
};

describe("locks left by a killed process", () => {
  it("are removed by the next process's first session in the dir; a live holder's lock stays", async () => {
    const live = await liveHolder("spec");
    const dead = await killedHolder("spec");
    const next = spawn("spec");
    const own = await next.run(async (client) => (await client.request("session/new", { cwd, mcpServers: [] })).sessionId);
    try {
      expect(existsSync(lockOf(dead))).toBe(false);
      expect(existsSync(lockOf(own))).toBe(true);
      expect(existsSync(lockOf(live.sessionId))).toBe(true);
    } finally {
      await stop(next);
      await stop(live.agent);
    }
    expect(next.stderr()).toContain(`removed 1 lock(s) left by processes that are gone: ${dead}.lock`);
    expect(next.problems).toEqual([]);
  });

  it("are removed when session/list sees them (full surface), and the session is still listed and loads", async () => {
    const live = await liveHolder("full");
    const dead = await killedHolder("full");
    const lister = spawn("full");
    try {
      const listed = await lister.run(async (client) => {
        const { sessions } = await client.request("session/list", { cwd });
        expect(existsSync(lockOf(dead))).toBe(false);
        expect(existsSync(lockOf(live.sessionId))).toBe(true);
        await client.request("session/load", { sessionId: dead, cwd, mcpServers: [] });
        return sessions.map((s) => s.sessionId);
      });
      expect(listed).toEqual(expect.arrayContaining([dead, live.sessionId]));
    } finally {
      await stop(lister);
      await stop(live.agent);
    }
    expect(lister.problems).toEqual([]);
    // Released at exit: nothing of the three processes is left.
    expect(existsSync(lockOf(dead))).toBe(false);
    expect(existsSync(lockOf(live.sessionId))).toBe(false);
  });
});
