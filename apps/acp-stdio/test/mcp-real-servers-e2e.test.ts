/**
 * Real MCP servers from npm, end to end (issue 29): `@modelcontextprotocol/server-filesystem` and
 * `@modelcontextprotocol/server-everything` started by the built mm-acp for the session, their tools
 * offered, asked for and run. server-filesystem's `read_media_file` holds the image twice (as content
 * and as structuredContent). Without `model.vision` the model gets a placeholder line and no base64 at
 * all, in that turn and the next; with it, the image itself; with it and a server that refuses
 * images, one notice and placeholders from then on. A server that fails to start says why.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, status, text, toolCalls, type FakeOpenAI, type RecordedRequest } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";

const EVERYTHING_SERVER = fileURLToPath(new URL("../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));
const FILESYSTEM_SERVER = fileURLToPath(new URL("../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url));
// A 1×1 PNG.
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAfbLI3wAAAABJRU5ErkJggg==";

let fake: FakeOpenAI;
let cwd: string;
beforeEach(async () => {
  fake = await startFakeOpenAI();
  cwd = mkdtempSync(join(tmpdir(), "mm-mcp-real-"));
  writeFileSync(join(cwd, "dot.png"), Buffer.from(PNG, "base64"));
});
afterEach(async () => {
  await fake.close();
  rmSync(cwd, { recursive: true, force: true });
});

/** The agent's environment: the fake model server, the full surface (where MCP servers run). */
const agentEnv = () => ({ MM_BASE_URL: fake.url, OPENAI_API_KEY: "sk-mcp", MM_MODEL: "m", MM_ACP_SURFACE: "full", XDG_CONFIG_HOME: cwd });
/** server-filesystem, allowed the test's cwd, as the editor lists it. */
const fsServer = (): acp.McpServerStdio[] => [{ name: "fs", command: process.execPath, args: [FILESYSTEM_SERVER, cwd], env: [] }];

/** Two turns: the model reads the image, answers, and is asked again. The bodies of the model requests. */
const readImage = async (vision: boolean): Promise<string[]> => {
  fake.enqueue(toolCalls([{ name: "fs__read_media_file", arguments: { path: join(cwd, "dot.png") } }]), text("a dot"), text("still a dot"));
  const config = join(cwd, "mm.json");
  writeFileSync(config, JSON.stringify({ model: { vision } }));
  const agent = spawnAgent({
    cwd,
    args: ["--config", config],
    env: agentEnv(),
  });
  await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", {
      cwd,
      mcpServers: fsServer(),
    });
    for (const question of ["what is in dot.png?", "and now?"]) {
      expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: question }] })).toEqual({ stopReason: "end_turn" });
    }
  });
  await stop(agent);
  expect(agent.permissions.map((p) => p.toolCall.title)).toEqual(["fs: Read Media File"]);
  expect(agent.problems).toEqual([]);
  return fake.requests.filter((r) => r.method === "POST").map((r) => JSON.stringify(r.body));
};

describe("server-filesystem through the built agent", () => {
  it("without model.vision, read_media_file's image reaches the model as one placeholder line, never as base64", async () => {
    const bodies = await readImage(false);
    expect(bodies).toHaveLength(3);
    expect(bodies[0]).toContain("fs__read_media_file");
    for (const body of bodies.slice(1)) {
      expect(body).toContain("[image/png, 70 B, not shown: the model does not read images]");
      expect(body).not.toContain(PNG.slice(0, 40));
    }
  });

  it("with model.vision, the image itself, once", async () => {
    const bodies = await readImage(true);
    expect(bodies[1]!.split(PNG.slice(0, 40)).length - 1).toBe(1);
    expect(bodies[1]).not.toContain("not shown: the model does not read images");
  });

  it("shows write_file as an edit, and tells the model a rejected call as a tool call, not a command", async () => {
    fake.enqueue(toolCalls([{ name: "fs__write_file", arguments: { path: join(cwd, "new.txt"), content: "x" } }]), text("ok"));
    const agent = spawnAgent({
      cwd,
      env: agentEnv(),
      permission: () => "reject",
    });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", {
        cwd,
        mcpServers: fsServer(),
      });
      expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write it" }] })).toEqual({ stopReason: "end_turn" });
    });
    await stop(agent);
    expect(agent.permissions.map((p) => [p.toolCall.title, p.toolCall.kind, p.toolCall.locations])).toEqual([
      ["fs: Write File", "edit", [{ path: join(cwd, "new.txt") }]],
    ]);
    expect(existsSync(join(cwd, "new.txt"))).toBe(false);
    const tool = (fake.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages.find((m) => m.role === "tool");
    expect(tool?.content).toBe("[tool call rejected by the user]");
    expect(agent.problems).toEqual([]);
  });

  it("replays a call with the title, kind and files it had live, before the server is back", async () => {
    writeFileSync(join(cwd, "notes.txt"), "hello\n");
    fake.enqueue(toolCalls([{ name: "fs__read_text_file", arguments: { path: join(cwd, "notes.txt") } }]), text("it says hello"));
    const config = join(cwd, "mm.json");
    writeFileSync(config, JSON.stringify({ sessions: { enabled: true } }));
    const env = agentEnv();
    const mcpServers = fsServer();
    const shownCalls = (agent: ReturnType<typeof spawnAgent>) =>
      agent.updates
        .map((u) => u.update)
        .filter((u) => u.sessionUpdate === "tool_call")
        .map((u) => {
          const call = u as { title: string; kind?: string; locations?: { path: string }[] };
          return { title: call.title, kind: call.kind, locations: call.locations };
        });
    const live = spawnAgent({ cwd, args: ["--config", config], env });
    let sessionId = "";
    await live.run(async (client) => {
      sessionId = (await client.request("session/new", { cwd, mcpServers })).sessionId;
      expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "read notes" }] })).toEqual({ stopReason: "end_turn" });
    });
    await stop(live);
    const replay = spawnAgent({ cwd, args: ["--config", config], env });
    await replay.run(async (client) => {
      await client.request("session/load", { sessionId, cwd, mcpServers });
    });
    await stop(replay);
    const expected = [{ title: "fs: Read Text File", kind: "read", locations: [{ path: join(cwd, "notes.txt") }] }];
    expect(shownCalls(live)).toEqual(expected);
    expect(shownCalls(replay)).toEqual(expected);
    expect(replay.problems).toEqual([]);
  });
});

/** server-everything on stdio (or with another first argument, e.g. a transport it does not know). */
const everything = (transport = "stdio"): acp.McpServerStdio[] => [{ name: "all", command: process.execPath, args: [EVERYTHING_SERVER, transport], env: [] }];

/** The text of the agent's message chunks. */
const chunksOf = (agent: ReturnType<typeof spawnAgent>): string[] =>
  agent.updates
    .map((u) => u.update)
    .filter((u) => u.sessionUpdate === "agent_message_chunk")
    .map((u) => (u as { content: { text?: string } }).content.text ?? "");

/** Ollama's answer to a text-only model sent an image: a 400 with its words. */
const refusesImages = (then: ReturnType<typeof text>) => (request: RecordedRequest) =>
  JSON.stringify(request.body).includes("image_url")
    ? status(400, { error: { message: "this model does not support image input", type: "invalid_request_error", param: null, code: null } })
    : then;

describe("server-everything through the built agent", () => {
  const run = async (vision: boolean, prompts: string[]) => {
    const config = join(cwd, "mm.json");
    writeFileSync(config, JSON.stringify({ model: { vision } }));
    const agent = spawnAgent({ cwd, args: ["--config", config], env: agentEnv() });
    const stops: unknown[] = [];
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: everything() });
      for (const question of prompts) stops.push(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: question }] }));
    });
    await stop(agent);
    return { agent, stops, bodies: fake.requests.filter((r) => r.method === "POST").map((r) => JSON.stringify(r.body)) };
  };

  it("offers its tools with their titles; get-tiny-image without vision: its text parts and one placeholder, no base64", async () => {
    fake.enqueue(toolCalls([{ name: "all__get-tiny-image", arguments: {} }]), text("the MCP logo"));
    const { agent, stops, bodies } = await run(false, ["show me the image"]);
    expect(stops).toEqual([{ stopReason: "end_turn" }]);
    const offered = (JSON.parse(bodies[0]!) as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name);
    expect(offered).toEqual(expect.arrayContaining(["all__echo", "all__get-sum", "all__get-tiny-image", "all__get-structured-content"]));
    const call = agent.updates.map((u) => u.update).find((u) => u.sessionUpdate === "tool_call") as { title: string; kind: string };
    expect([call.title, call.kind]).toEqual(["all: Get Tiny Image Tool", "read"]);
    expect(bodies[1]).toContain("Here's the image you requested:");
    expect(bodies[1]).toContain("The image above is the MCP logo.");
    expect(bodies[1]).toMatch(/\[image\/png, \d+ KB?, not shown: the model does not read images\]/);
    expect(bodies[1]).not.toContain("iVBORw0KGgo");
    expect(agent.problems).toEqual([]);
  });

  it("with vision on and a server that refuses images: told once, then placeholders, this turn and the next", async () => {
    fake.enqueue(toolCalls([{ name: "all__get-tiny-image", arguments: {} }]), refusesImages(text("a logo, I am told")), refusesImages(text("still")));
    const { agent, stops, bodies } = await run(true, ["show me the image", "and again?"]);
    expect(stops).toEqual([{ stopReason: "end_turn" }, { stopReason: "end_turn" }]);
    expect(bodies).toHaveLength(4);
    expect(bodies[1]).toContain("iVBORw0KGgo");
    for (const body of bodies.slice(2)) expect(body).not.toContain("iVBORw0KGgo");
    const told = chunksOf(agent).filter((c) => c.includes("refused the images"));
    expect(told).toHaveLength(1);
    expect(told[0]).toContain("this model does not support image input");
    expect(agent.stderr()).toMatch(/refused the images .*images go as placeholders from now on/);
    expect(agent.problems).toEqual([]);
  });

  it("gives the model get-structured-content's result once, not again as JSON of structuredContent", async () => {
    fake.enqueue(toolCalls([{ name: "all__get-structured-content", arguments: { location: "Chicago" } }]), text("drizzle"));
    const { bodies } = await run(false, ["weather in Chicago?"]);
    const tool = (JSON.parse(bodies[1]!) as { messages: { role: string; content: unknown }[] }).messages.find((m) => m.role === "tool");
    expect(tool?.content).toBe('{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}');
  });

  it("a server that fails at start is told once with the line that says why, and its stderr's tail is logged", async () => {
    fake.enqueue(text("no tools then"));
    const agent = spawnAgent({ cwd, env: agentEnv() });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: everything("carrier-pigeon") });
      expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })).toEqual({ stopReason: "end_turn" });
    });
    await stop(agent);
    const told = chunksOf(agent).filter((c) => c.includes('MCP server "all"'));
    expect(told).toEqual(['[MCP server "all" failed to start: the server exited with code 1 (stderr: Unknown transport: carrier-pigeon)]\n']);
    expect(agent.stderr()).toMatch(/MCP server "all" failed to start: .*; stderr: .*Everything Server Launcher \| .*Unknown transport: carrier-pigeon/);
  });
});
