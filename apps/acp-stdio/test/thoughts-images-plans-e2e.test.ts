/**
 * Reasoning, images and plans, end to end through the built mm-acp against the local fake server:
 * `reasoning_content` deltas (and a Responses model's reasoning summary) reach the editor as
 * `agent_thought_chunk`s; with `model.vision` an image
 * block of a prompt reaches the server as an image part (and `promptCapabilities.image` is advertised)
 * and replays as an image chunk after the prompt's text;
 * on the full surface the model's `update_plan` call becomes a `plan` update, replayed on load.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, thinking, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

let fake: FakeOpenAI;
let cwd: string;

beforeEach(async () => {
  fake = await startFakeOpenAI();
  cwd = mkdtempSync(join(tmpdir(), "mm-tip-"));
});
afterEach(async () => {
  await fake.close();
  rmSync(cwd, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({ MM_BASE_URL: fake.url, OPENAI_API_KEY: "sk-t", MM_MODEL: "fake-model", XDG_CONFIG_HOME: cwd, ...extra });
const config = (document: unknown): string[] => {
  writeFileSync(join(cwd, "mm.json"), JSON.stringify(document));
  return ["--config", join(cwd, "mm.json")];
};

describe("thoughts, images and plans", () => {
  it("streams the model's reasoning as thought chunks, on the spec surface too", async () => {
    fake.enqueue(thinking(["Let me ", "think."], ["Hello."]));
    const agent = spawnAgent({ env: env(), cwd });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
    });
    await stop(agent);
    const updates = agent.updates.map((u) => u.update);
    expect(updates.filter((u) => u.sessionUpdate === "agent_thought_chunk").map((u) => (u as { content: { text: string } }).content.text)).toEqual([
      "Let me ",
      "think.",
    ]);
    expect(updates.findIndex((u) => u.sessionUpdate === "agent_thought_chunk")).toBeLessThan(
      updates.findIndex((u) => u.sessionUpdate === "agent_message_chunk"),
    );
    expect(agent.problems).toEqual([]);
  });

  it("over the Responses API, shows a reasoning model's summary as thought chunks and sends its encrypted reasoning back", async () => {
    fake.enqueue(thinking(["Weighing ", "options."], ["Done."]), text("Again."));
    const agent = spawnAgent({ env: env({ MM_MODEL: "gpt-5-mini" }), cwd, args: config({ model: { api: "responses" } }) });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go on" }] });
    });
    await stop(agent);
    const thoughts = agent.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "agent_thought_chunk");
    expect(thoughts.map((u) => (u as { content: { text: string } }).content.text)).toEqual(["Weighing ", "options."]);
    expect(fake.requests[0]).toMatchObject({ path: "/v1/responses", body: { store: false, reasoning: { summary: "auto" } } });
    const input = (fake.requests[1]!.body as { input: { type?: string; encrypted_content?: string }[] }).input;
    expect(input.find((item) => item.type === "reasoning")).toMatchObject({ encrypted_content: expect.stringMatching(/^encrypted:/) });
    expect(agent.problems).toEqual([]);
  });

  it("with model.vision, advertises images and sends an image block to the model as an image part", async () => {
    fake.enqueue(text("A red pixel."));
    const args = config({ model: { vision: true }, sessions: { enabled: true } });
    const agent = spawnAgent({ env: env(), cwd, args });
    const sessionId = await agent.run(async (client) => {
      const init = await client.request("initialize", { protocolVersion: 1 });
      expect(init.agentCapabilities?.promptCapabilities?.image).toBe(true);
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", {
        sessionId,
        prompt: [
          { type: "text", text: "what is this?" },
          { type: "image", data: PNG, mimeType: "image/png" },
        ],
      });
      return sessionId;
    });
    await stop(agent);
    const body = fake.requests[0]!.body as { messages: { role: string; content: unknown }[] };
    expect(body.messages.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "text", text: "what is this?" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
      ],
    });
    expect(agent.problems).toEqual([]);
    // Loaded in another process, the prompt replays as its text, then its image.
    const loader = spawnAgent({ env: env(), cwd, args });
    await loader.run(async (client) => {
      await client.request("initialize", { protocolVersion: 1 });
      await client.request("session/load", { sessionId, cwd, mcpServers: [] });
    });
    await stop(loader);
    const replayed = loader.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "user_message_chunk");
    expect(replayed).toEqual([
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "what is this?" } },
      { sessionUpdate: "user_message_chunk", content: { type: "image", data: PNG, mimeType: "image/png" } },
    ]);
    expect(loader.problems).toEqual([]);
  });

  it("without model.vision, an image block does not reach the model", async () => {
    fake.enqueue(text("ok"));
    const agent = spawnAgent({ env: env(), cwd });
    await agent.run(async (client) => {
      const init = await client.request("initialize", { protocolVersion: 1 });
      expect(init.agentCapabilities?.promptCapabilities).toBeUndefined();
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", {
        sessionId,
        prompt: [
          { type: "text", text: "look" },
          { type: "image", data: PNG, mimeType: "image/png" },
        ],
      });
    });
    await stop(agent);
    expect(JSON.stringify(fake.requests[0]!.body)).not.toContain(PNG);
  });

  it("on the full surface, shows the model's plan and replays it on load", async () => {
    const entries = [
      { content: "Read the failing test", priority: "high", status: "completed" },
      { content: "Fix the parser", priority: "high", status: "in_progress" },
      { content: "Run the suite", priority: "medium", status: "pending" },
    ];
    fake.enqueue(toolCalls([{ name: "update_plan", arguments: { entries } }]), text("Working on it."));
    const args = config({ sessions: { enabled: true } });
    const first = spawnAgent({ env: env({ MM_ACP_SURFACE: "full" }), cwd, args });
    const sessionId = await first.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "fix the parser" }] });
      return sessionId;
    });
    await stop(first);
    expect(first.updates.map((u) => u.update)).toContainEqual({ sessionUpdate: "plan", entries });
    expect(first.permissions).toEqual([]);
    const chat = fake.requests.find((r) => r.path === "/v1/chat/completions")!;
    expect((chat.body as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name)).toContain("update_plan");

    const second = spawnAgent({ env: env({ MM_ACP_SURFACE: "full" }), cwd, args });
    await second.run((client) => client.request("session/load", { sessionId, cwd, mcpServers: [] }));
    await stop(second);
    expect(second.updates.map((u) => u.update)).toContainEqual({ sessionUpdate: "plan", entries });
    expect(first.problems.concat(second.problems)).toEqual([]);
  });
});
