/**
 * `/undo N` end to end through the built binary on the full surface: the last N turns taken back at
 * once, files and conversation, advertised with its input hint; a file changed between two of those
 * turns refuses the whole, naming the turn, until `/undo N force`; more turns than the conversation has
 * changes nothing.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { removeTempDirs, tempDir } from "./faults/helpers.js";
import { stop, type SpawnedAgent } from "./spawned-agent.js";
import { lastChunk, NOT_UNDONE, prompt, spawnUndoAgent, startUndoCase } from "./undo-session.js";

let server: FakeOpenAI;
let cwd: string;
let config: string;
let state: string;

beforeEach(async () => {
  ({ server, cwd, state, config } = await startUndoCase("undo-n"));
});
afterEach(async () => {
  await server.close();
  removeTempDirs();
});

const spawn = (): SpawnedAgent => spawnUndoAgent({ server, cwd, state, config });

const sessionFile = (id: string) => JSON.parse(readFileSync(join(cwd, ".mm/sessions", `${id}.json`), "utf8")) as { messages: unknown[] };
const read = (name: string): string => readFileSync(join(cwd, name), "utf8");

/** Turn n: a.txt gets n, f<n>.txt is made. */
const writeTurn = (n: number): void => {
  server.enqueue(toolCalls([{ name: "bash", arguments: { command: `echo ${n} > a.txt; echo ${n} > f${n}.txt` } }]), text(`wrote ${n}`));
};

describe("/undo N", () => {
  it("/undo 2 takes back the last two turns: files as before the earlier one, the history two turns shorter", async () => {
    writeFileSync(join(cwd, "a.txt"), "0\n");
    const agent = spawn();
    const sessionId = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      for (const n of [1, 2, 3]) {
        writeTurn(n);
        await prompt(client, sessionId, `write ${n}`);
      }
      expect(await prompt(client, sessionId, "/undo 2")).toBe("end_turn");
      return sessionId;
    });
    await stop(agent);
    expect(lastChunk(agent, sessionId)).toBe(`↩ undid the last 2 turns: 1 file(s) restored, 2 removed, history back to 4 message(s).\n${NOT_UNDONE}`);
    expect(read("a.txt")).toBe("1\n");
    expect(readdirSync(cwd).sort()).toEqual([".mm", "a.txt", "f1.txt"]);
    // system prompt + one turn (prompt, the call, its result, the answer).
    expect(sessionFile(sessionId).messages).toHaveLength(5);
    // Not sent to the model: three turns' requests only.
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(6);
    const commands = agent.updates.find((u) => u.update.sessionUpdate === "available_commands_update")?.update as acp.AvailableCommandsUpdate;
    expect(commands.availableCommands.find((c) => c.name === "undo")?.input).toEqual({
      hint: "N turns (1 if none), then force to restore files changed since",
    });
    expect(agent.problems).toEqual([]);

    // After session/load in a new process, the last turn left goes too.
    const second = spawn();
    await second.run(async (client) => {
      await client.request("session/load", { sessionId, cwd, mcpServers: [] });
      await prompt(client, sessionId, "/undo 1");
    });
    await stop(second);
    expect(lastChunk(second, sessionId)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 1 removed, history back to 0 message\(s\)\./);
    expect(read("a.txt")).toBe("0\n");
    expect(readdirSync(cwd).sort()).toEqual([".mm", "a.txt"]);
  });

  it("a file changed between the two turns refuses the whole, naming the turn, until /undo 2 force", async () => {
    writeFileSync(join(cwd, "a.txt"), "0\n");
    const agent = spawn();
    const sessionId = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      writeTurn(1);
      await prompt(client, sessionId, "write 1");
      writeFileSync(join(cwd, "a.txt"), "the user's own edit\n");
      writeTurn(2);
      await prompt(client, sessionId, "write 2");
      await prompt(client, sessionId, "/undo 2");
      expect(lastChunk(agent, sessionId)).toBe(
        `↩ nothing undone: 1 file(s) are not as the 2nd to last turn ("write 1") left them:\n- ${join(cwd, "a.txt")}: changed since the turn\n` +
          "Send /undo 2 force to restore them anyway (what they hold now is lost).",
      );
      // Nothing restored, not even the last turn's files; the history whole.
      expect(read("a.txt")).toBe("2\n");
      expect(readdirSync(cwd).sort()).toEqual([".mm", "a.txt", "f1.txt", "f2.txt"]);
      expect(sessionFile(sessionId).messages).toHaveLength(9);
      await prompt(client, sessionId, "/undo 3");
      expect(lastChunk(agent, sessionId)).toBe("↩ nothing undone: the conversation has 2 turn(s), not 3; send /undo 2 to take them all back.");
      await prompt(client, sessionId, "/undo 2 force");
      return sessionId;
    });
    await stop(agent);
    expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last 2 turns: 1 file\(s\) restored, 2 removed, history back to 0 message\(s\)\./);
    expect(read("a.txt")).toBe("0\n");
    expect(readdirSync(cwd).sort()).toEqual([".mm", "a.txt"]);
    expect(sessionFile(sessionId).messages).toHaveLength(1);
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(4);
    expect(agent.problems).toEqual([]);
  });

  it("a file that cannot be written back stops at its turn: the later turns are taken out, that one stays to be finished", async () => {
    const outside = tempDir("undo-n-outside");
    mkdirSync(join(cwd, "dir"));
    writeFileSync(join(cwd, "dir/a.txt"), "mine\n");
    writeFileSync(join(cwd, "b.txt"), "bee\n");
    const agent = spawn();
    const sessionId = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      server.enqueue(toolCalls([{ name: "bash", arguments: { command: "echo one > dir/a.txt" } }]), text("one"));
      await prompt(client, sessionId, "turn one");
      server.enqueue(toolCalls([{ name: "bash", arguments: { command: "echo two > b.txt" } }]), text("two"));
      await prompt(client, sessionId, "turn two");
      // The directory is a link out of the project now, to a file with what the turn left: no conflict, but never written through.
      writeFileSync(join(outside, "a.txt"), "one\n");
      rmSync(join(cwd, "dir"), { recursive: true });
      symlinkSync(outside, join(cwd, "dir"));
      await prompt(client, sessionId, "/undo 2");
      const chunk = lastChunk(agent, sessionId);
      expect(chunk).toMatch(
        /^↩ undo not finished: 1 of 2 turns taken back; the 2nd to last turn \("turn one"\): 0 file\(s\) restored, 0 removed, but 1 could not be restored:\n/,
      );
      expect(chunk).toContain(`- ${join(cwd, "dir/a.txt")}: `);
      expect(chunk).toContain("That turn stays in the conversation");
      expect(read("b.txt")).toBe("bee\n");
      expect(readFileSync(join(outside, "a.txt"), "utf8")).toBe("one\n");
      // The last turn is out; the first stays, with its record.
      expect(sessionFile(sessionId).messages).toHaveLength(5);
      // Put right, /undo finishes it.
      rmSync(join(cwd, "dir"));
      mkdirSync(join(cwd, "dir"));
      writeFileSync(join(cwd, "dir/a.txt"), "one\n");
      await prompt(client, sessionId, "/undo");
      return sessionId;
    });
    await stop(agent);
    expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 0 removed, history back to 0 message\(s\)\./);
    expect(read("dir/a.txt")).toBe("mine\n");
    expect(agent.problems.filter((line) => !line.includes("could not restore"))).toEqual([]);
  });
});
