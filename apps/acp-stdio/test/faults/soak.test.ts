/**
 * Soak: 1,000 turns with tool calls (read_file, write_file, edit_file and bash, each through the
 * permission dialog) in one spawned `mm-acp` with sessions on disk, against the local fake OpenAI
 * server. Memory and open file descriptors must stay flat once warmed up.
 *
 * "Flat", between turn 200 and turn 1,000: RSS (VmRSS of /proc/<pid>/status) grows by less than
 * 30 MB, and the open file descriptors (/proc/<pid>/fd) are the same ±2.
 *
 * The agent runs with `--max-old-space-size=64` (its live heap is about 17 MB). Without a cap V8
 * grows its heap lazily and RSS says little: with no leak, RSS was seen to rise by 4 to 77 MB over
 * these 800 turns and to plateau only after ~2,000, while heap snapshots (taken after a full GC)
 * differed by less than 0.5 MB between turn 200 and turns 1,000 and 3,000. Capped, V8 collects
 * before it grows, RSS stays within a few MB, and a leak shows as growth — or as an out-of-memory
 * crash, which fails the test too.
 *
 * Histories are reset with `/new` every 25 turns of a session, so a growing conversation is not
 * mistaken for a leak; sessions are never dropped by the agent (no session/close), so a fixed set of
 * four is used.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI, type RecordedRequest } from "@mm/fake-openai";
import {
  configFile,
  descendants,
  fdCount,
  hasStackTrace,
  openSession,
  promptText,
  removeTempDirs,
  rssKb,
  spawnRaw,
  tempDir,
  type RawAgent,
} from "./helpers.js";

const TURNS = 1000;
const WARM_TURN = 200;
const RSS_GROWTH_LIMIT_KB = 30 * 1024;
const FD_TOLERANCE = 2;

let server: FakeOpenAI;
let agent: RawAgent;
// On tmpfs when there is one: the session saves' fsyncs then cost nothing, the code paths stay the same.
const cwd = existsSync("/dev/shm") ? mkdtempSync("/dev/shm/mm-faults-soak-") : tempDir("soak");

const questionNumber = (content: unknown): number => Number(/question (\d+)/.exec(JSON.stringify(content))?.[1] ?? 0);

/**
 * One tool call when the conversation ends with the user's question, the answer after its result.
 * The mix: read_file most of the time, write_file and edit_file, and bash every twentieth turn (a
 * bash call costs several times a file operation: two processes, and the change tracker's snapshots).
 */
const reply = (request: RecordedRequest) => {
  const messages = (request.body as { messages: { role: string; content: unknown }[] }).messages;
  const last = messages.at(-1)!;
  if (last.role !== "user") return text(["Done", " with ", `${messages.length}.`]);
  const n = questionNumber(last.content);
  const call =
    n % 20 === 0
      ? { name: "bash", arguments: { command: `echo turn-${n}` } }
      : n % 10 === 3
        ? { name: "write_file", arguments: { path: `out-${n % 7}.txt`, content: `turn ${n}\n` } }
        : n % 10 === 7
          ? { name: "edit_file", arguments: { path: "notes.txt", old_text: "some notes\n", new_text: "some notes\n", replace_all: true } }
          : { name: "read_file", arguments: { path: "notes.txt" } };
  return toolCalls([call], "Working. ");
};

beforeAll(async () => {
  server = await startFakeOpenAI([], { defaultReply: reply });
  writeFileSync(join(cwd, "notes.txt"), "some notes\n".repeat(50));
  agent = spawnRaw({
    cwd,
    args: ["--config", configFile(cwd)],
    env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-soak", MM_MODEL: "fake-model", NODE_OPTIONS: "--max-old-space-size=64" },
  });
});
afterAll(async () => {
  if (!agent.hasExited()) agent.child.kill("SIGKILL");
  await server.close();
  rmSync(cwd, { recursive: true, force: true });
  removeTempDirs();
});

describe("soak", () => {
  it(`${TURNS} turns with tool calls: memory and file descriptors flat`, async () => {
    const sessions = [await openSession(agent, cwd)];
    for (let i = 1; i < 4; i++) sessions.push(((await agent.request("session/new", { cwd, mcpServers: [] })).result as { sessionId: string }).sessionId);
    const samples: { turn: number; rssKb: number; fds: number }[] = [];
    const sample = (turn: number) => samples.push({ turn, rssKb: rssKb(agent.pid), fds: fdCount(agent.pid) });
    const t0 = Date.now();
    for (let turn = 1; turn <= TURNS; turn++) {
      const sessionId = sessions[turn % sessions.length]!;
      const answer = await agent.request("session/prompt", promptText(sessionId, `question ${turn}`));
      if (answer.error !== undefined || (answer.result as { stopReason: string }).stopReason !== "end_turn") {
        throw new Error(`turn ${turn} failed: ${JSON.stringify(answer)}; stderr tail: ${agent.stderr().slice(-500)}`);
      }
      if (turn % (25 * sessions.length) < sessions.length) await agent.request("session/prompt", promptText(sessionId, "/new"));
      if (turn % 100 === 0 || turn === WARM_TURN) sample(turn);
    }
    const elapsed = Date.now() - t0;
    const warm = samples.find((s) => s.turn === WARM_TURN)!;
    const last = samples.find((s) => s.turn === TURNS)!;
    const permissions = agent.messages.filter((m) => m.method === "session/request_permission").length;
    console.error(
      `soak: ${TURNS} turns (${permissions} tool calls through the permission dialog) in ${(elapsed / 1000).toFixed(1)} s; ` +
        `RSS ${(warm.rssKb / 1024).toFixed(1)} MB at turn ${WARM_TURN} → ${(last.rssKb / 1024).toFixed(1)} MB at turn ${TURNS} ` +
        `(limit +${RSS_GROWTH_LIMIT_KB / 1024} MB, heap capped at 64 MB); fds ${warm.fds} → ${last.fds} (±${FD_TOLERANCE}); ` +
        `samples ${samples.map((s) => `${s.turn}:${(s.rssKb / 1024).toFixed(0)}MB/${s.fds}fd`).join(" ")}`,
    );
    expect(permissions).toBe(TURNS);
    expect(last.rssKb - warm.rssKb).toBeLessThan(RSS_GROWTH_LIMIT_KB);
    expect(Math.abs(last.fds - warm.fds)).toBeLessThanOrEqual(FD_TOLERANCE);
    expect(descendants(agent.pid)).toEqual([]);
    expect(agent.problems).toEqual([]);
    agent.child.stdin.end();
    expect((await agent.exited).code).toBe(0);
    expect(hasStackTrace(agent.stderr())).toBe(false);
    expect(agent.stderr()).not.toMatch(/could not save|internal error/);
  }, 120_000);
});
