/**
 * Cancellation races, through the SDK client over in-memory streams: cancel before the turn starts
 * (queued behind another session's turn), while the model streams, while permission is asked, while
 * bash runs (real bash), twice, for an unknown session, right before a new prompt — then a few
 * hundred cancels at random moments of turns with tool calls. Every prompt answers, `cancelled` or
 * `end_turn`; nothing runs after a cancel; the history stays usable and the next prompt works.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Model, ModelEvent, ModelRequest } from "@mm/core";
import { hangingReply, textReply, toolReply } from "@mm/core/testing";
import { bashShell } from "@mm/node";
import { inMemoryAcp } from "../in-memory-acp.js";
import { removeTempDirs, sleep, tempDir, waitFor } from "./helpers.js";

let tried = 0;
afterAll(() => removeTempDirs());
afterAll(() =>
  console.error(`cancellation: ${tried} cancels tried (targeted races and random-moment fuzz); every prompt answered, nothing ran after a cancel`),
);

const prompt = (sessionId: string, text: string) => ({ sessionId, prompt: [{ type: "text" as const, text }] });
const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms))]);

describe("cancellation races", () => {
  it("cancel of a turn queued behind another session's turn: answered at once, the model never called for it", async () => {
    const t = inMemoryAcp({ replies: [hangingReply([{ type: "text", text: "A is thinking" }]), textReply("B later"), textReply("A again")] });
    await t.run(async (agent) => {
      const a = (await agent.request("session/new", { cwd: "/w", mcpServers: [] })).sessionId;
      const b = (await agent.request("session/new", { cwd: "/w", mcpServers: [] })).sessionId;
      const runningA = agent.request("session/prompt", prompt(a, "long"));
      await waitFor(() => t.model.requests.length === 1, "A's model step");
      const queuedB = agent.request("session/prompt", prompt(b, "queued"));
      await sleep(20);
      await agent.notify("session/cancel", { sessionId: b });
      expect(await within(queuedB, 500, "the queued prompt")).toEqual({ stopReason: "cancelled" });
      tried++;
      expect(t.model.requests).toHaveLength(1);
      expect(t.served.app.agent.session(b)!.history).toHaveLength(1);
      await agent.notify("session/cancel", { sessionId: a });
      expect(await within(runningA, 500, "A")).toEqual({ stopReason: "cancelled" });
      tried++;
      expect(await agent.request("session/prompt", prompt(b, "now"))).toEqual({ stopReason: "end_turn" });
      expect(t.textOf(b)).toBe("B later");
    });
    expect(t.problems).toEqual([]);
  });

  it("cancel while the model streams: cancelled, the partial text kept and sent next time", async () => {
    const t = inMemoryAcp({ replies: [hangingReply([{ type: "text", text: "half an ans" }]), textReply("whole")] });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      const running = agent.request("session/prompt", prompt(sessionId, "explain"));
      await waitFor(() => t.textOf(sessionId) === "half an ans", "the partial text");
      await agent.notify("session/cancel", { sessionId });
      expect(await within(running, 500, "the prompt")).toEqual({ stopReason: "cancelled" });
      tried++;
      expect(await agent.request("session/prompt", prompt(sessionId, "go on"))).toEqual({ stopReason: "end_turn" });
    });
    const sent = JSON.stringify(t.model.requests[1]!.messages);
    expect(sent).toContain("half an ans");
    expect(sent).toContain("explain");
  });

  it("cancel while permission is asked: cancelled, the tool never runs, a late answer changes nothing", async () => {
    let answer!: (choice: "allow") => void;
    const t = inMemoryAcp({
      replies: [toolReply([{ name: "bash", input: { command: "touch /tmp/should-not-exist" } }]), textReply("next")],
      permission: () => new Promise((resolve) => (answer = resolve)),
    });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      const running = agent.request("session/prompt", prompt(sessionId, "do it"));
      await waitFor(() => t.permissions.length === 1, "the permission request");
      await agent.notify("session/cancel", { sessionId });
      expect(await within(running, 500, "the prompt")).toEqual({ stopReason: "cancelled" });
      tried++;
      answer("allow");
      await sleep(50);
      expect(t.shell.requests).toEqual([]);
      const last = t.updates
        .map((u) => u.update)
        .filter((u) => u.sessionUpdate === "tool_call_update")
        .at(-1);
      expect(last).toMatchObject({ status: "failed" });
      expect(await agent.request("session/prompt", prompt(sessionId, "fine"))).toEqual({ stopReason: "end_turn" });
      expect(t.shell.requests).toEqual([]);
    });
    expect(t.problems).toEqual([]);
  });

  it("cancel while bash runs (real bash): cancelled within a second, the process group gone", async () => {
    const dir = tempDir("cancel-bash");
    const pidfile = join(dir, "pid");
    const t = inMemoryAcp({
      replies: [toolReply([{ name: "bash", input: { command: `echo $$ > ${pidfile}; sleep 30` } }]), textReply("after")],
      ports: { shell: bashShell() },
    });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: dir, mcpServers: [] });
      const running = agent.request("session/prompt", prompt(sessionId, "sleep"));
      await waitFor(() => existsSync(pidfile) && readFileSync(pidfile, "utf8").trim() !== "", "bash to start");
      const pgid = Number(readFileSync(pidfile, "utf8"));
      await sleep(50);
      const t0 = Date.now();
      await agent.notify("session/cancel", { sessionId });
      expect(await within(running, 2000, "the prompt")).toEqual({ stopReason: "cancelled" });
      expect(Date.now() - t0).toBeLessThan(1000);
      tried++;
      expect(() => process.kill(-pgid, 0)).toThrow();
      expect(await agent.request("session/prompt", prompt(sessionId, "and now"))).toEqual({ stopReason: "end_turn" });
    });
  });

  it("cancel twice, cancel after the turn ended, cancel before any prompt: harmless", async () => {
    const t = inMemoryAcp({ replies: [hangingReply(), textReply("one"), textReply("two")] });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      await agent.notify("session/cancel", { sessionId });
      const running = agent.request("session/prompt", prompt(sessionId, "x"));
      await waitFor(() => t.model.requests.length === 1, "the model step");
      await agent.notify("session/cancel", { sessionId });
      await agent.notify("session/cancel", { sessionId });
      expect(await within(running, 500, "the prompt")).toEqual({ stopReason: "cancelled" });
      await agent.notify("session/cancel", { sessionId });
      tried += 4;
      expect(await agent.request("session/prompt", prompt(sessionId, "y"))).toEqual({ stopReason: "end_turn" });
      expect(await agent.request("session/prompt", prompt(sessionId, "z"))).toEqual({ stopReason: "end_turn" });
      expect(t.textOf(sessionId)).toBe("onetwo");
    });
    expect(t.problems).toEqual([]);
  });

  it("cancel for an unknown or malformed session id: ignored and logged, the agent serves on", async () => {
    const t = inMemoryAcp({ replies: [textReply("alive")] });
    await t.run(async (agent) => {
      for (const sessionId of ["20260101-000000-deadbeef", "", "../../etc/passwd", "x".repeat(10_000), "\u0000"]) {
        await agent.notify("session/cancel", { sessionId });
        tried++;
      }
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expect(await agent.request("session/prompt", prompt(sessionId, "hi"))).toEqual({ stopReason: "end_turn" });
    });
    expect(t.logs.filter((l) => l.includes("cancel for unknown session")).length).toBe(5);
  });

  it("a prompt sent right after a cancel runs normally", async () => {
    const t = inMemoryAcp({ replies: [hangingReply(), textReply("fresh")] });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      const first = agent.request("session/prompt", prompt(sessionId, "one"));
      await waitFor(() => t.model.requests.length === 1, "the model step");
      await agent.notify("session/cancel", { sessionId });
      const second = agent.request("session/prompt", prompt(sessionId, "two"));
      expect(await first).toEqual({ stopReason: "cancelled" });
      expect(await second).toEqual({ stopReason: "end_turn" });
      tried++;
    });
  });

  it("a cancel of one session leaves another session's running turn alone", async () => {
    const t = inMemoryAcp({ replies: [hangingReply([{ type: "text", text: "A" }])] });
    await t.run(async (agent) => {
      const a = (await agent.request("session/new", { cwd: "/w", mcpServers: [] })).sessionId;
      const b = (await agent.request("session/new", { cwd: "/w", mcpServers: [] })).sessionId;
      let settled = false;
      const runningA = agent.request("session/prompt", prompt(a, "long")).finally(() => (settled = true));
      await waitFor(() => t.model.requests.length === 1, "A's step");
      await agent.notify("session/cancel", { sessionId: b });
      await sleep(50);
      expect(settled).toBe(false);
      await agent.notify("session/cancel", { sessionId: a });
      expect(await runningA).toEqual({ stopReason: "cancelled" });
      tried += 2;
    });
  });

  it("fuzz: cancels at random moments of turns with tool calls, permission and streaming", async () => {
    let seed = 42;
    const rand = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const delay = (signal: AbortSignal, ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
      });
    // A model streaming a few chunks with small pauses; every other step calls a tool.
    let steps = 0;
    const model: Model = {
      step: async function* (request: ModelRequest): AsyncGenerator<ModelEvent> {
        const n = steps++;
        for (let i = 0; i < 3; i++) {
          await delay(request.signal, Math.floor(rand() * 3));
          if (request.signal.aborted) return yield { type: "error", error: { kind: "aborted", message: "cancelled" } };
          yield { type: "text", text: `s${n}c${i} ` };
        }
        if (n % 2 === 0)
          yield {
            type: "tool-call",
            id: `m${n}`,
            name: n % 4 === 0 ? "bash" : "read_file",
            input: n % 4 === 0 ? { command: `echo ${n}` } : { path: "/w/f.txt" },
          };
        yield { type: "finish", usage: { inputTokens: 10, outputTokens: 5 } };
      },
    };
    const t = inMemoryAcp({
      files: { "/w/f.txt": "content\n" },
      shell: async (request) => {
        await delay(request.signal, Math.floor(rand() * 3));
        return { output: "ran\n", cancelled: request.signal.aborted };
      },
      permission: async (): Promise<"allow"> => {
        await sleep(Math.floor(rand() * 3));
        return "allow";
      },
      ports: { model },
    });
    const ROUNDS = 300;
    const outcomes = { cancelled: 0, end_turn: 0 };
    let ranAfterCancel = 0;
    await t.run(async (agent) => {
      const sessions = [
        (await agent.request("session/new", { cwd: "/w", mcpServers: [] })).sessionId,
        (await agent.request("session/new", { cwd: "/w", mcpServers: [] })).sessionId,
      ];
      for (let round = 0; round < ROUNDS; round++) {
        const sessionId = sessions[round % 2]!;
        const answer = agent.request("session/prompt", prompt(sessionId, `round ${round}`));
        await sleep(Math.floor(rand() * 8));
        await agent.notify("session/cancel", { sessionId });
        tried++;
        const { stopReason } = await within(answer as Promise<{ stopReason: string }>, 2000, `round ${round}`);
        expect(["cancelled", "end_turn"]).toContain(stopReason);
        outcomes[stopReason as "cancelled" | "end_turn"]++;
        const shellCallsAtAnswer = t.shell.requests.length;
        await sleep(5);
        ranAfterCancel += t.shell.requests.length - shellCallsAtAnswer;
      }
      for (const sessionId of sessions) {
        expect(t.served.app.agent.session(sessionId)!.running).toBe(0);
        expect(await agent.request("session/prompt", prompt(sessionId, "after the storm"))).toMatchObject({ stopReason: expect.stringMatching(/end_turn/) });
      }
    });
    expect(ranAfterCancel).toBe(0);
    expect(outcomes.cancelled).toBeGreaterThan(ROUNDS / 4);
    expect(t.problems).toEqual([]);
    console.error(`cancellation fuzz: ${ROUNDS} random-moment cancels, ${outcomes.cancelled} cancelled, ${outcomes.end_turn} finished first`);
  }, 60_000);
});
