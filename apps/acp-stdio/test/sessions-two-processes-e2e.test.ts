/**
 * One session, two agent processes, end to end: the process holding a session keeps it; the other's
 * `session/load` (or prompt) is refused with `invalid params` naming the holder's pid, before anything
 * runs; no turn answered `end_turn` is ever missing from the file.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, type FakeOpenAI } from "@mm/fake-openai";
import { removeTempDirs, tempDir } from "./faults/helpers.js";
import { spawnAgent, stop, type SpawnedAgent } from "./spawned-agent.js";

let server: FakeOpenAI;
let cwd: string;
let config: string;
const agents: SpawnedAgent[] = [];

beforeEach(async () => {
  server = await startFakeOpenAI([], { defaultReply: (request) => text(`answer to ${lastUserText(request.body)}`) });
  cwd = tempDir("two");
  config = join(cwd, "mm.json");
  writeFileSync(config, JSON.stringify({ sessions: { enabled: true } }));
});
afterEach(async () => {
  for (const agent of agents.splice(0)) if (agent.child.exitCode === null) agent.child.kill("SIGKILL");
  await server.close();
  removeTempDirs();
});

const lastUserText = (body: unknown): string => {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  const content = messages.filter((m) => m.role === "user").at(-1)?.content;
  return typeof content === "string" ? content : JSON.stringify(content);
};

const start = (): SpawnedAgent => {
  const agent = spawnAgent({
    env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-two", MM_MODEL: "fake", XDG_CONFIG_HOME: cwd },
    cwd,
    args: ["--config", config],
  });
  agents.push(agent);
  return agent;
};

/** Runs `op` with a connected client and keeps the connection (and the process) open until `done`. */
const open = (agent: SpawnedAgent) => {
  let client!: acp.ClientContext;
  let finish!: () => void;
  const ready = new Promise<void>((resolve) => {
    void agent
      .run(async (c) => {
        client = c;
        resolve();
        await new Promise<void>((r) => (finish = r));
      })
      .catch(() => undefined);
  });
  return ready.then(() => ({ client, close: async () => (finish(), await stop(agent)) }));
};

const say = (sessionId: string, words: string): acp.PromptRequest => ({ sessionId, prompt: [{ type: "text", text: words }] });
const stopReasonOf = async (client: acp.ClientContext, sessionId: string, words: string): Promise<string> =>
  ((await client.request("session/prompt", say(sessionId, words))) as acp.PromptResponse).stopReason;
type RpcError = { code: number; data: { sessionId: string; error: string } };
const refusal = (promise: Promise<unknown>): Promise<RpcError | undefined> =>
  promise.then(
    () => undefined,
    (e: RpcError) => e,
  );
const userTexts = (agent: SpawnedAgent, sessionId: string) =>
  agent.updates
    .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "user_message_chunk")
    .map((u) => (u.update as { content: { text: string } }).content.text);
const sessionsDir = () => join(cwd, ".mm/sessions");

describe("one session in two processes", () => {
  it.each(["prompts before", "prompts after"] as const)(
    "the holder keeps it: the other's session/load is refused naming its pid; the holder %s that refusal; every turn is in the file",
    async (order) => {
      const a = start();
      const b = start();
      const holder = await open(a);
      const other = await open(b);
      const { sessionId } = await holder.client.request("session/new", { cwd, mcpServers: [] });
      expect(JSON.parse(readFileSync(join(sessionsDir(), `${sessionId}.lock`), "utf8")).pid).toBe(a.child.pid);
      if (order === "prompts before") await holder.client.request("session/prompt", say(sessionId, "one"));
      const refused = await refusal(other.client.request("session/load", { sessionId, cwd, mcpServers: [] }));
      expect(refused).toMatchObject({ code: -32602, data: { sessionId, error: `session is open in another mm process, pid ${a.child.pid}` } });
      const prompted = await refusal(other.client.request("session/prompt", say(sessionId, "sneaky")));
      expect(prompted?.code).toBe(-32602);
      if (order === "prompts after") await holder.client.request("session/prompt", say(sessionId, "one"));
      expect(await stopReasonOf(holder.client, sessionId, "two")).toBe("end_turn");
      await holder.close();
      expect(readdirSync(sessionsDir()).sort()).toEqual([".gitignore", `${sessionId}.json`]);
      expect(await other.client.request("session/load", { sessionId, cwd, mcpServers: [] })).toEqual({});
      expect(userTexts(b, sessionId)).toEqual(["one", "two"]);
      expect(await stopReasonOf(other.client, sessionId, "three")).toBe("end_turn");
      await other.close();
      expect(server.requests.map((r) => lastUserText(r.body))).toEqual(["one", "two", "three"]);
      expect(b.stderr()).toContain(`session "${sessionId}": load failed: session is open in another mm process, pid ${a.child.pid}`);
      const third = start();
      await third.run((client) => client.request("session/load", { sessionId, cwd, mcpServers: [] }));
      await stop(third);
      expect(userTexts(third, sessionId)).toEqual(["one", "two", "three"]);
      expect([...a.problems, ...b.problems, ...third.problems]).toEqual([]);
    },
  );

  it("a SIGKILLed holder's session is taken over by the next process, its turns all there", async () => {
    const a = start();
    let sessionId = "";
    await a
      .run(async (client) => {
        sessionId = (await client.request("session/new", { cwd, mcpServers: [] })).sessionId;
        await client.request("session/prompt", say(sessionId, "before the kill"));
        a.child.kill("SIGKILL");
        await a.exited;
      })
      .catch(() => undefined);
    expect((await a.exited).signal).toBe("SIGKILL");
    expect(existsSync(join(sessionsDir(), `${sessionId}.lock`))).toBe(true);
    const b = start();
    await b.run(async (client) => {
      expect(await client.request("session/load", { sessionId, cwd, mcpServers: [] })).toEqual({});
      expect(JSON.parse(readFileSync(join(sessionsDir(), `${sessionId}.lock`), "utf8")).pid).toBe(b.child.pid);
      await client.request("session/prompt", say(sessionId, "after"));
    });
    await stop(b);
    expect(userTexts(b, sessionId)).toEqual(["before the kill"]);
    expect(readdirSync(sessionsDir()).sort()).toEqual([".gitignore", `${sessionId}.json`]);
  });

  it.each(["holder first", "other first"] as const)(
    "both have it open (its lock was deleted by hand): only the holder's prompts run, the other's are refused before running (%s)",
    async (order) => {
      const a = start();
      const b = start();
      const first = await open(a);
      const { sessionId } = await first.client.request("session/new", { cwd, mcpServers: [] });
      await first.client.request("session/prompt", say(sessionId, "one"));
      rmSync(join(sessionsDir(), `${sessionId}.lock`));
      const second = await open(b);
      expect(await second.client.request("session/load", { sessionId, cwd, mcpServers: [] })).toEqual({});
      const requestsBefore = server.requests.length;
      const aTries = () => refusal(first.client.request("session/prompt", say(sessionId, "from a")));
      const bTries = () => second.client.request("session/prompt", say(sessionId, "from b"));
      let refused: RpcError | undefined;
      if (order === "holder first") {
        await bTries();
        refused = await aTries();
      } else {
        refused = await aTries();
        await bTries();
      }
      expect(refused).toMatchObject({ code: -32602, data: { sessionId, error: `session is open in another mm process, pid ${b.child.pid}` } });
      expect(server.requests.slice(requestsBefore).map((r) => lastUserText(r.body))).toEqual(["from b"]);
      await second.close();
      const again = await refusal(first.client.request("session/prompt", say(sessionId, "from a, later")));
      expect(again?.data.error).toMatch(/changed on disk by another process.*; load the session again$/);
      expect(await first.client.request("session/load", { sessionId, cwd, mcpServers: [] })).toEqual({});
      expect(await stopReasonOf(first.client, sessionId, "from a, reloaded")).toBe("end_turn");
      await first.close();
      const reader = start();
      await reader.run((client) => client.request("session/load", { sessionId, cwd, mcpServers: [] }));
      await stop(reader);
      expect(userTexts(reader, sessionId)).toEqual(["one", "from b", "from a, reloaded"]);
    },
  );
});
