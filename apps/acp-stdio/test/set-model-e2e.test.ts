/**
 * `session/set_model` (issue 40), through the built binary: the unstable method the AI SDK's ACP
 * provider sends to switch models. On the full surface it sets the session's model option (the next
 * request's `model`, announced as `config_option_update`, kept with the session), refuses a model not
 * offered with `invalid params`; the spec surface answers `method not found`, as for any method it
 * does not list.
 */
import { rmSync } from "node:fs";
import { startFakeOpenAI, text, type FakeOpenAI } from "@mm/fake-openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stop } from "./spawned-agent.js";
import { sessionsCwd, spawnInSessionsCwd } from "./sessions-cwd.js";

let server: FakeOpenAI;
let cwd: string;
beforeEach(async () => {
  server = await startFakeOpenAI([], { models: ["fake-big", "fake-model"] });
  cwd = sessionsCwd("set-model");
});
afterEach(async () => {
  await server.close();
  rmSync(cwd, { recursive: true, force: true });
});

const spawn = (surface: "spec" | "full") => spawnInSessionsCwd(cwd, server.url, surface, "fake-model");
const say = (sessionId: string, words: string) => ({ sessionId, prompt: [{ type: "text" as const, text: words }] });
const errorOf = async (request: Promise<unknown>) =>
  request.then(
    () => undefined,
    (error: unknown) => error as { code: number; data?: unknown },
  );
const requestedModels = () => server.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => (r.body as { model: string }).model);

describe("session/set_model", () => {
  it("full surface: sets the model option, announced; a model not offered and bad params are refused; kept with the session", async () => {
    server.enqueue(text("first"), text("second"), text("third"));
    const first = spawn("full");
    const sessionId = await first.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", say(sessionId, "one"));
      expect(await client.request<{ sessionId: string; modelId: string }, unknown>("session/set_model", { sessionId, modelId: "fake-big" })).toEqual({});
      const refused = await errorOf(
        client.request<{ sessionId: string; modelId: string }, unknown>("session/set_model", { sessionId, modelId: "no-such-model" }),
      );
      expect(refused).toMatchObject({ code: -32602 });
      expect(JSON.stringify(refused)).toContain("no-such-model");
      expect(await errorOf(client.request<{ sessionId: string }, unknown>("session/set_model", { sessionId }))).toMatchObject({ code: -32602 });
      expect(
        await errorOf(client.request<{ sessionId: string; modelId: string }, unknown>("session/set_model", { sessionId: "nope", modelId: "fake-big" })),
      ).toMatchObject({
        code: -32602,
      });
      await client.request("session/prompt", say(sessionId, "two"));
      return sessionId;
    });
    await stop(first);
    expect(first.problems).toEqual([]);
    expect(requestedModels()).toEqual(["fake-model", "fake-big"]);
    const announced = first.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "config_option_update");
    expect(JSON.stringify(announced.at(-1))).toContain('"currentValue":"fake-big"');

    const second = spawn("full");
    await second.run(async (client) => {
      await client.request("session/load", { sessionId, cwd, mcpServers: [] });
      await client.request("session/prompt", say(sessionId, "three"));
    });
    await stop(second);
    expect(requestedModels()).toEqual(["fake-model", "fake-big", "fake-big"]);
  });

  it("spec surface: method not found, the model unchanged", async () => {
    server.enqueue(text("only"));
    const agent = spawn("spec");
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      expect(
        await errorOf(client.request<{ sessionId: string; modelId: string }, unknown>("session/set_model", { sessionId, modelId: "fake-big" })),
      ).toMatchObject({
        code: -32601,
      });
      await client.request("session/prompt", say(sessionId, "one"));
    });
    await stop(agent);
    expect(requestedModels()).toEqual(["fake-model"]);
  });
});
