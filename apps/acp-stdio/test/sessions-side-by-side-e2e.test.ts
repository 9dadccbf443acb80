/**
 * Sessions side by side (issue 40), through the built binary on the full surface: an editor with two
 * threads open on one mm gets both answered at once. Two sessions' turns overlap (the fake server
 * paces each answer; their chunks interleave on stdout), each ends `end_turn`, each session file holds
 * its own conversation whole; a second prompt to a session whose turn is running waits for it. Two
 * sessions sharing a cwd still run their commands one at a time, so each command's diffs are its own.
 * Cancelling one session's turn leaves the other's streaming to its end.
 * On the old code every turn of the process waited for the one before: the streams never interleaved.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, expect, it } from "vitest";
import { slowText, startFakeOpenAI, text, toolCalls, type FakeOpenAI, type RecordedRequest, type Reply } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";

type Body = { messages?: { role: string; content?: unknown }[] };

const lastUserText = (request: RecordedRequest): string => {
  const messages = (request.body as Body).messages ?? [];
  const user = [...messages].reverse().find((m) => m.role === "user");
  return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content ?? "");
};
const lastRole = (request: RecordedRequest): string | undefined => (request.body as Body).messages?.at(-1)?.role;

/** Ten chunks labelled by the prompt (`alpha-1`, …), one every 60 ms: a model still answering. */
const paced = (label: string): Reply =>
  slowText(
    Array.from({ length: 10 }, (_, i) => `${label}.${i} `),
    60,
  );

let server: FakeOpenAI;
let root: string;
let xdg: string;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "mm-side-by-side-"));
  xdg = join(root, "xdg");
  mkdirSync(join(xdg, "mm"), { recursive: true });
  writeFileSync(join(xdg, "mm/config.json"), JSON.stringify({ acp: { surface: "full" }, sessions: { enabled: true } }));
});
afterEach(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const env = () => ({ MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-side-by-side", MM_MODEL: "fake", XDG_CONFIG_HOME: xdg });

/** The label of each agent_message_chunk (`alpha` of `alpha.3 `), in the order they came. */
const chunkOrder = (updates: readonly acp.SessionNotification[]): string[] =>
  updates.flatMap((u) =>
    u.update.sessionUpdate === "agent_message_chunk" && u.update.content.type === "text" ? [u.update.content.text.split(".")[0] ?? ""] : [],
  );

type Doc = { messages: { role: string; content?: unknown; text?: string }[] };
const documentOf = (cwd: string, id: string): Doc => JSON.parse(readFileSync(join(cwd, ".mm/sessions", `${id}.json`), "utf8")) as Doc;

it("answers two sessions at once: their streams interleave, each ends end_turn, each file holds its own turns whole", async () => {
  server = await startFakeOpenAI([], { defaultReply: (request) => paced(lastUserText(request).split(" ")[0] ?? "?") });
  const one = join(root, "one");
  const two = join(root, "two");
  mkdirSync(one);
  mkdirSync(two);
  const agent = spawnAgent({ cwd: root, env: env() });
  const outcome = await agent.run(async (client) => {
    const a = await client.request("session/new", { cwd: one, mcpServers: [] });
    const b = await client.request("session/new", { cwd: two, mcpServers: [] });
    const ask = (sessionId: string, words: string) => client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: words }] });
    // Alpha's second prompt is sent while its first runs: it waits for it, beta does not.
    const stops = await Promise.all([ask(a.sessionId, "alpha first"), ask(b.sessionId, "beta only"), ask(a.sessionId, "again second")]);
    return { a: a.sessionId, b: b.sessionId, stops: stops.map((s) => s.stopReason) };
  });
  await stop(agent);
  expect(outcome.stops).toEqual(["end_turn", "end_turn", "end_turn"]);
  const order = chunkOrder(agent.updates);
  // Interleaved: each first turn's first chunk came before the other's last one; alpha's second turn after its first.
  expect(order.indexOf("beta")).toBeLessThan(order.lastIndexOf("alpha"));
  expect(order.indexOf("alpha")).toBeLessThan(order.lastIndexOf("beta"));
  expect(order.indexOf("again")).toBeGreaterThan(order.lastIndexOf("alpha"));
  const labelled = (label: string) => Array.from({ length: 10 }, (_, i) => `${label}.${i} `).join("");
  // One session's turns one after the other, never mixed; nothing of the other session's in it.
  expect(agent.textOf(outcome.a)).toBe(labelled("alpha") + labelled("again"));
  expect(agent.textOf(outcome.b)).toBe(labelled("beta"));
  const texts = (doc: Doc) => JSON.stringify(doc.messages);
  const docA = documentOf(one, outcome.a);
  const docB = documentOf(two, outcome.b);
  expect(docA.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user", "assistant"]);
  expect(texts(docA)).toContain(labelled("alpha").trim());
  expect(texts(docA)).toContain(labelled("again").trim());
  expect(texts(docA)).not.toContain("beta");
  expect(docB.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
  expect(texts(docB)).not.toContain("alpha");
  expect(agent.problems).toEqual([]);
});

it("runs two sessions' commands in a shared cwd one at a time: each command's diffs are its own", async () => {
  // Each session's first request: a command writing its own file (alpha's lingers after it); then a short answer.
  const script = (request: RecordedRequest): Reply => {
    const word = lastUserText(request).split(" ")[0] ?? "?";
    if (lastRole(request) === "tool") return text(`${word} done`);
    const command = word === "alpha" ? "echo a > alpha.txt && sleep 1" : "echo b > beta.txt";
    return toolCalls([{ name: "bash", arguments: { command } }]);
  };
  server = await startFakeOpenAI([], { defaultReply: script });
  const shared = join(root, "shared");
  mkdirSync(shared);
  const agent = spawnAgent({ cwd: root, env: env() });
  const outcome = await agent.run(async (client) => {
    const a = await client.request("session/new", { cwd: shared, mcpServers: [] });
    const b = await client.request("session/new", { cwd: shared, mcpServers: [] });
    const ask = (sessionId: string, words: string) => client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: words }] });
    const first = ask(a.sessionId, "alpha writes");
    // Beta's command is asked for once alpha's runs.
    while (!agent.updates.some((u) => u.sessionId === a.sessionId && u.update.sessionUpdate === "tool_call_update" && u.update.status === "in_progress")) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const stops = await Promise.all([first, ask(b.sessionId, "beta writes")]);
    return { a: a.sessionId, b: b.sessionId, stops: stops.map((s) => s.stopReason) };
  });
  await stop(agent);
  expect(outcome.stops).toEqual(["end_turn", "end_turn"]);
  const diffPaths = (sessionId: string): string[] =>
    agent.updates
      .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "tool_call_update" && u.update.status === "completed")
      .flatMap((u) => ((u.update as acp.ToolCallUpdate).content ?? []).flatMap((c) => (c.type === "diff" ? [c.path] : [])));
  expect(diffPaths(outcome.a)).toEqual([join(shared, "alpha.txt")]);
  expect(diffPaths(outcome.b)).toEqual([join(shared, "beta.txt")]);
  expect(agent.problems).toEqual([]);
});

it("keeps one turn at a time for the process on the spec surface", async () => {
  writeFileSync(join(xdg, "mm/config.json"), JSON.stringify({ sessions: { enabled: true } }));
  server = await startFakeOpenAI([], { defaultReply: (request) => paced(lastUserText(request).split(" ")[0] ?? "?") });
  const agent = spawnAgent({ cwd: root, env: env() });
  const stops = await agent.run(async (client) => {
    const a = await client.request("session/new", { cwd: root, mcpServers: [] });
    const b = await client.request("session/new", { cwd: root, mcpServers: [] });
    const ask = (sessionId: string, words: string) => client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: words }] });
    return (await Promise.all([ask(a.sessionId, "alpha first"), ask(b.sessionId, "beta only")])).map((s) => s.stopReason);
  });
  await stop(agent);
  expect(stops).toEqual(["end_turn", "end_turn"]);
  const order = chunkOrder(agent.updates).join(" ");
  expect([`${"alpha ".repeat(10)}${"beta ".repeat(10)}`.trim(), `${"beta ".repeat(10)}${"alpha ".repeat(10)}`.trim()]).toContain(order);
  expect(agent.problems).toEqual([]);
});

it("cancels one session's turn and leaves the other's running to its end", async () => {
  server = await startFakeOpenAI([], { defaultReply: (request) => paced(lastUserText(request).split(" ")[0] ?? "?") });
  const agent = spawnAgent({ cwd: root, env: env() });
  const outcome = await agent.run(async (client) => {
    const a = await client.request("session/new", { cwd: root, mcpServers: [] });
    const b = await client.request("session/new", { cwd: root, mcpServers: [] });
    const ask = (sessionId: string, words: string) => client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: words }] });
    const turns = [ask(a.sessionId, "alpha stops"), ask(b.sessionId, "beta goes on")];
    // Once both stream, alpha is cancelled.
    const streaming = (id: string) => agent.updates.some((u) => u.sessionId === id && u.update.sessionUpdate === "agent_message_chunk");
    while (!streaming(a.sessionId) || !streaming(b.sessionId)) await new Promise((resolve) => setImmediate(resolve));
    await client.notify("session/cancel", { sessionId: a.sessionId });
    const stops = await Promise.all(turns);
    return { b: b.sessionId, stops: stops.map((s) => s.stopReason) };
  });
  await stop(agent);
  expect(outcome.stops).toEqual(["cancelled", "end_turn"]);
  expect(agent.textOf(outcome.b)).toBe(Array.from({ length: 10 }, (_, i) => `beta.${i} `).join(""));
  expect(agent.problems).toEqual([]);
});
