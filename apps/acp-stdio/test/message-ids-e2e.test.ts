/**
 * Message ids and tool names (issue 40), through the built binary and the SDK's client (every message
 * checked against the stable schema): on the full surface each message's chunks share one `messageId`
 * (the text before a tool call and the text after it are two messages), a `tool_call` carries its
 * tool's `name`, live and in a `session/load` replay; the spec surface sends neither.
 */
import { rmSync } from "node:fs";
import type * as acp from "@agentclientprotocol/sdk";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stop, type SpawnedAgent } from "./spawned-agent.js";
import { sessionsCwd, spawnInSessionsCwd } from "./sessions-cwd.js";

let server: FakeOpenAI;
let cwd: string;
beforeEach(async () => {
  server = await startFakeOpenAI();
  cwd = sessionsCwd("message-ids");
});
afterEach(async () => {
  await server.close();
  rmSync(cwd, { recursive: true, force: true });
});

const spawn = (surface: "spec" | "full") => spawnInSessionsCwd(cwd, server.url, surface);

const script = () => server.enqueue(toolCalls([{ name: "bash", arguments: { command: "echo hi" } }], "Let me look."), text(["All ", "done."]));

/** One turn that speaks, runs a command, and speaks again; the session id. */
const turn = async (agent: SpawnedAgent): Promise<string> =>
  agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "look around" }] })).toEqual({ stopReason: "end_turn" });
    return sessionId;
  });

type Chunk = { sessionUpdate: string; content: { text?: string }; messageId?: string | null };
const chunks = (updates: readonly acp.SessionUpdate[], kind: string) =>
  updates.filter((u) => u.sessionUpdate === kind).map((u) => ({ text: (u as Chunk).content.text, id: (u as Chunk).messageId }));
const toolCallsOf = (updates: readonly acp.SessionUpdate[]) => updates.filter((u) => u.sessionUpdate === "tool_call") as (acp.ToolCall & { name?: string })[];

describe("message ids and tool names", () => {
  it("full surface: one id per message, a new one after the tool call; the tool call named; the same in a replay", async () => {
    script();
    const first = spawn("full");
    const sessionId = await turn(first);
    await stop(first);
    expect(first.problems).toEqual([]);
    const live = first.updates.map((u) => u.update);
    const said = chunks(live, "agent_message_chunk");
    expect(said.map((c) => c.text)).toEqual(["Let me look.", "All ", "done."]);
    const [before, after1, after2] = said.map((c) => c.id);
    expect(before).toEqual(expect.any(String));
    expect(after1).toEqual(expect.any(String));
    expect(after1).toBe(after2);
    expect(after1).not.toBe(before);
    // The text before the call ends before it: the call comes between the two messages.
    const order = live.filter((u) => u.sessionUpdate === "agent_message_chunk" || u.sessionUpdate === "tool_call").map((u) => u.sessionUpdate);
    expect(order).toEqual(["agent_message_chunk", "tool_call", "agent_message_chunk", "agent_message_chunk"]);
    expect(toolCallsOf(live).map((c) => [c.name, c.title])).toEqual([["bash", "bash: echo hi"]]);

    const second = spawn("full");
    await second.run(async (client) => client.request("session/load", { sessionId, cwd, mcpServers: [] }));
    await stop(second);
    expect(second.problems).toEqual([]);
    const replay = second.updates.map((u) => u.update);
    const user = chunks(replay, "user_message_chunk");
    const agent = chunks(replay, "agent_message_chunk");
    expect(user.map((c) => c.text)).toEqual(["look around"]);
    expect(agent.map((c) => c.text)).toEqual(["Let me look.", "All done."]);
    const ids = [...user, ...agent].map((c) => c.id);
    expect(ids.every((id) => typeof id === "string")).toBe(true);
    expect(new Set(ids).size).toBe(3);
    expect(ids).not.toContain(before);
    expect(toolCallsOf(replay).map((c) => c.name)).toEqual(["bash"]);
  });

  it("spec surface: the chunks and the tool call as the spec lists them, no messageId, no name", async () => {
    script();
    const agent = spawn("spec");
    await turn(agent);
    await stop(agent);
    expect(agent.problems).toEqual([]);
    const live = agent.updates.map((u) => u.update);
    expect(chunks(live, "agent_message_chunk").every((c) => c.id === undefined)).toBe(true);
    expect(toolCallsOf(live).every((c) => c.name === undefined)).toBe(true);
  });
});
