/**
 * Lifecycle: the spawned `mm-acp` with sessions on disk, ended in every way an editor ends it while a
 * turn runs — stdin closed, SIGTERM/SIGINT/SIGHUP, the editor vanishing (its end of stdout closed, so
 * the next write fails with EPIPE; or every pipe closed at once). Each time: the running turn is
 * stopped, the session file holds the interrupted turn, no child process is left (commands ignoring
 * SIGTERM and background jobs included), and the process exits within 2 s without a stack trace.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { slowText, startFakeOpenAI, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import {
  configFile,
  descendants,
  hasStackTrace,
  openSession,
  promptText,
  removeTempDirs,
  sleep,
  spawnRaw,
  tempDir,
  waitFor,
  type RawAgent,
} from "./helpers.js";

const EXIT_BUDGET_MS = 2000;
let tried = 0;
const servers: FakeOpenAI[] = [];
const agents: RawAgent[] = [];

afterAll(async () => {
  for (const a of agents) if (!a.hasExited()) a.child.kill("SIGKILL");
  await Promise.all(servers.map((s) => s.close()));
  removeTempDirs();
  console.error(`lifecycle: ${tried} endings tried (stdin closed, SIGTERM, SIGINT, SIGHUP, EPIPE, every pipe closed; mid-turn and idle)`);
});

/** A fake model server, a fresh cwd with sessions on, and a way to start agents there. */
const context = async () => {
  const server = await startFakeOpenAI();
  servers.push(server);
  const cwd = tempDir("life");
  const start = () => {
    const a = spawnRaw({ cwd, args: ["--config", configFile(cwd)], env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-life", MM_MODEL: "fake-model" } });
    agents.push(a);
    return a;
  };
  const sessionFile = (sessionId: string) => join(cwd, ".mm/sessions", `${sessionId}.json`);
  /** Starts a turn whose bash call runs `command` (which must write PIDFILE), and waits until it runs. */
  const turnRunningCommand = async (command: string, prompt: string) => {
    const a = start();
    const pidfile = join(cwd, "pid");
    server.enqueue(toolCalls([{ name: "bash", arguments: { command: command.replace("PIDFILE", pidfile) } }]));
    const sessionId = await openSession(a, cwd);
    void a.request("session/prompt", promptText(sessionId, prompt)).catch(() => undefined);
    await waitFor(() => toolRunning(a) && existsSync(pidfile) && readFileSync(pidfile, "utf8").trim() !== "", "the command to run");
    await sleep(100);
    const children = descendants(a.pid);
    expect(children.some((p) => p.comm === "sleep")).toBe(true);
    return { a, sessionId, children };
  };
  /** Ends the agent with `end`, then checks the exit, the children and the saved turn. */
  const endAndCheck = async (a: RawAgent, end: () => void, sessionId: string, children: { pid: number }[], expectInSession: string[], stderrOpen = true) => {
    const t0 = Date.now();
    end();
    const { code, signal } = await a.exited;
    const took = Date.now() - t0;
    expect(took).toBeLessThan(EXIT_BUDGET_MS);
    expect(signal).toBeNull();
    expect(code).toBe(0);
    await sleep(50);
    const alive = children.filter((p) => existsSync(`/proc/${p.pid}`) && !readFileSync(`/proc/${p.pid}/stat`, "utf8").includes(") Z "));
    expect(alive).toEqual([]);
    const saved = readFileSync(sessionFile(sessionId), "utf8");
    for (const text of expectInSession) expect(saved).toContain(text);
    if (stderrOpen) {
      expect(hasStackTrace(a.stderr())).toBe(false);
      expect(a.stderr()).toContain("[acp] shutting down");
    }
    expect(a.problems).toEqual([]);
    tried++;
    return took;
  };
  return { server, cwd, start, sessionFile, turnRunningCommand, endAndCheck };
};

const updates = (a: RawAgent, kind: string) =>
  a.notifications("session/update").filter((m) => (m.params as { update: { sessionUpdate: string } }).update.sessionUpdate === kind);

const toolRunning = (a: RawAgent) => updates(a, "tool_call_update").some((m) => (m.params as { update: { status?: string } }).update.status === "in_progress");

describe.concurrent("lifecycle", () => {
  it("stdin closed while bash runs: the command's group is killed, the turn saved, exit in time", async () => {
    const { turnRunningCommand, endAndCheck } = await context();
    const { a, sessionId, children } = await turnRunningCommand("echo $$ > PIDFILE; sleep 30", "run the long one");
    await endAndCheck(a, () => a.child.stdin.end(), sessionId, children, ["run the long one", "sleep 30"]);
  });

  it("SIGTERM while a command that ignores SIGTERM runs (and forks a child that ignores it too)", async () => {
    const { turnRunningCommand, endAndCheck } = await context();
    const { a, sessionId, children } = await turnRunningCommand("trap '' TERM; (sleep 31) & echo $$ > PIDFILE; sleep 30", "stubborn");
    expect(children.filter((p) => p.comm === "sleep")).toHaveLength(2);
    await endAndCheck(a, () => a.child.kill("SIGTERM"), sessionId, children, ["stubborn", "trap '' TERM"]);
  });

  for (const signal of ["SIGINT", "SIGHUP"] as const) {
    it(`${signal} while bash runs`, async () => {
      const { turnRunningCommand, endAndCheck } = await context();
      const { a, sessionId, children } = await turnRunningCommand("echo $$ > PIDFILE; sleep 30", `by ${signal}`);
      await endAndCheck(a, () => a.child.kill(signal), sessionId, children, [`by ${signal}`]);
    });
  }

  it("the editor vanishes mid-stream (its end of stdout closed): EPIPE stops the turn, partial text is saved", async () => {
    const { server, cwd, start, endAndCheck } = await context();
    const a = start();
    const chunks = Array.from({ length: 300 }, (_, i) => `chunk-${i} `);
    server.enqueue(slowText(chunks, 15));
    const sessionId = await openSession(a, cwd);
    void a.request("session/prompt", promptText(sessionId, "stream a lot")).catch(() => undefined);
    await waitFor(() => updates(a, "agent_message_chunk").length >= 5, "some streamed text");
    await endAndCheck(a, () => a.child.stdout.destroy(), sessionId, [], ["stream a lot", "chunk-0 chunk-1 chunk-2"]);
    expect(a.stderr()).toMatch(/shutting down: (stdout closed \(EPIPE\)|the client closed the connection|the connection failed)/);
  });

  it("the editor dies mid-turn (every pipe closed at once) while bash runs", async () => {
    const { turnRunningCommand, endAndCheck } = await context();
    const { a, sessionId, children } = await turnRunningCommand("echo $$ > PIDFILE; sleep 30", "editor crash");
    await endAndCheck(
      a,
      () => {
        a.child.stdout.destroy();
        a.child.stderr.destroy();
        a.child.stdin.destroy();
      },
      sessionId,
      children,
      ["editor crash"],
      false,
    );
  });

  it("a turn queued behind another session's turn is dropped, both sessions' files stay valid", async () => {
    const { cwd, sessionFile, turnRunningCommand, endAndCheck } = await context();
    const { a, sessionId, children } = await turnRunningCommand("echo $$ > PIDFILE; sleep 30", "first session");
    const second = (await a.request("session/new", { cwd, mcpServers: [] })).result as { sessionId: string };
    void a.request("session/prompt", promptText(second.sessionId, "queued question")).catch(() => undefined);
    await sleep(100);
    await endAndCheck(a, () => a.child.kill("SIGTERM"), sessionId, children, ["first session"]);
    const other = JSON.parse(readFileSync(sessionFile(second.sessionId), "utf8")) as { id: string; messages: unknown[] };
    expect(other.id).toBe(second.sessionId);
    expect(JSON.stringify(other.messages)).not.toContain("queued question");
  });

  it("a background job left by an earlier command does not outlive the agent", async () => {
    const { server, cwd, start, endAndCheck } = await context();
    const a = start();
    const pidfile = join(cwd, "bg.pid");
    server.enqueue(toolCalls([{ name: "bash", arguments: { command: `sleep 60 > /dev/null 2>&1 & echo $! > ${pidfile}` } }]));
    const sessionId = await openSession(a, cwd);
    expect((await a.request("session/prompt", promptText(sessionId, "start a job"))).result).toEqual({ stopReason: "end_turn" });
    const bg = Number(readFileSync(pidfile, "utf8"));
    expect(existsSync(`/proc/${bg}`)).toBe(true);
    await endAndCheck(a, () => a.child.stdin.end(), sessionId, [{ pid: bg }], ["start a job"]);
  });

  it("idle: stdin closed, then each signal, exit at once with code 0", async () => {
    const { cwd, start } = await context();
    for (const end of ["stdin", "SIGTERM", "SIGINT", "SIGHUP"] as const) {
      const a = start();
      await openSession(a, cwd);
      const t0 = Date.now();
      if (end === "stdin") a.child.stdin.end();
      else a.child.kill(end);
      expect(await a.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - t0).toBeLessThan(1000);
      expect(hasStackTrace(a.stderr())).toBe(false);
      tried++;
    }
  });
});
