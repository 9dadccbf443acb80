/**
 * What `/undo` leaves in `session/list` (issue 40), through the built binary on the full surface. Each
 * `/undo` kept the conversation before it as a session of its own with the session's very title, so
 * four `/undo` made five identical rows. Now the conversation before an `/undo` is kept once, titled
 * for the turn taken back; further `/undo` in a row keep nothing new (their conversations are all in
 * it); a turn sent between two `/undo` makes a conversation of its own, kept under its own name.
 */
import { rmSync } from "node:fs";
import type * as acp from "@agentclientprotocol/sdk";
import { startFakeOpenAI, text, type FakeOpenAI } from "@mm/fake-openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stop } from "./spawned-agent.js";
import { sessionsCwd, spawnInSessionsCwd } from "./sessions-cwd.js";

let server: FakeOpenAI;
let cwd: string;
beforeEach(async () => {
  server = await startFakeOpenAI([], { defaultReply: () => text("ok") });
  cwd = sessionsCwd("undo-listing");
});
afterEach(async () => {
  await server.close();
  rmSync(cwd, { recursive: true, force: true });
});

const spawn = () => spawnInSessionsCwd(cwd, server.url, "full");

describe("session/list after /undo", () => {
  it("four /undo in a row: the session and one kept conversation, told apart by its title; a turn between two /undo is kept under its own", async () => {
    const agent = spawn();
    const { rows, later, sessionId } = await agent.run(async (client) => {
      const say = (sessionId: string, words: string) => client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: words }] });
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      for (const words of ["Fix the login bug", "now rename the helper", "add a test", "run the linter"]) await say(sessionId, words);
      for (let i = 0; i < 4; i++) expect(await say(sessionId, "/undo")).toEqual({ stopReason: "end_turn" });
      const rows = (await client.request("session/list", { cwd })).sessions;
      await say(sessionId, "Start over: explain the bug");
      await say(sessionId, "/undo");
      const later = (await client.request("session/list", { cwd })).sessions;
      return { rows, later, sessionId };
    });
    await stop(agent);
    expect(agent.problems).toEqual([]);
    const titles = (list: acp.SessionInfo[]) => list.map((s) => s.title ?? null).sort();
    expect(rows).toHaveLength(2);
    expect(rows.map((s) => s.sessionId)).toContain(sessionId);
    expect(titles(rows.filter((s) => s.sessionId !== sessionId))).toEqual(['Fix the login bug (before /undo of "run the linter")']);
    expect(later).toHaveLength(3);
    expect(titles(later.filter((s) => s.sessionId !== sessionId))).toEqual([
      'Fix the login bug (before /undo of "run the linter")',
      "Start over: explain the bug (before /undo)",
    ]);
    // Every title on the list is different.
    expect(new Set(later.map((s) => s.title ?? null)).size).toBe(later.length);
  });
});
