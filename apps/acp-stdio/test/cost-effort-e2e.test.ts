/**
 * What a session costs, and the reasoning effort it asks for (issue 40), through the built binary on the
 * full surface. `usage_update.cost` (USD, summed per session): from the server's own figure when it
 * reports one (OpenRouter's `usage.cost` in the final chunk), else from `model.pricing` (fresh, cached
 * and output tokens per million); kept in the session file and sent again after a load. The reasoning
 * effort is a config option of category `thought_level` where the model takes one, reaches the request
 * body as `reasoning_effort`, and is kept with the session like the model. The old code sent no cost and
 * had no effort option.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI, type FakeUsage } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";

let server: FakeOpenAI;
let root: string;
let xdg: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "mm-cost-effort-"));
  xdg = join(root, "xdg");
  mkdirSync(join(xdg, "mm"), { recursive: true });
});
afterEach(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const configure = (extra: Record<string, unknown>, surface = "full"): void =>
  writeFileSync(join(xdg, "mm/config.json"), JSON.stringify({ acp: { surface }, sessions: { enabled: true }, ...extra }));
const env = (model = "fake") => ({ MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-cost", MM_MODEL: model, XDG_CONFIG_HOME: xdg });
const start = async (usage: FakeUsage) => {
  server = await startFakeOpenAI([], { usage });
};

type Cost = { amount: number; currency: string };
const costs = (updates: readonly acp.SessionNotification[], sessionId: string): (Cost | undefined)[] =>
  updates.flatMap((u) => (u.sessionId === sessionId && u.update.sessionUpdate === "usage_update" ? [(u.update as { cost?: Cost }).cost ?? undefined] : []));

/** Two prompts in one process, then a load in another: the costs of each usage_update, and the file's. */
const twoTurnsThenLoad = async () => {
  const first = spawnAgent({ cwd: root, env: env() });
  const sessionId = await first.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd: root, mcpServers: [] });
    for (const text of ["one", "two"]) await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
    return sessionId;
  });
  await stop(first);
  const live = costs(first.updates, sessionId);
  const file = JSON.parse(readFileSync(join(root, ".mm/sessions", `${sessionId}.json`), "utf8")) as { cost?: number };
  const second = spawnAgent({ cwd: root, env: env() });
  await second.run((client) => client.request("session/load", { sessionId, cwd: root, mcpServers: [] }));
  await stop(second);
  expect([...first.problems, ...second.problems]).toEqual([]);
  return { live, file: file.cost, loaded: costs(second.updates, sessionId) };
};

it("sends the cost the server reported, summed per session, kept in the file and sent again after a load", async () => {
  await start({ promptTokens: 1000, completionTokens: 50, cost: 0.0125 });
  configure({});
  const { live, file, loaded } = await twoTurnsThenLoad();
  expect(live.map((c) => c?.currency)).toEqual(["USD", "USD"]);
  expect(live[0]?.amount).toBeCloseTo(0.0125, 10);
  expect(live[1]?.amount).toBeCloseTo(0.025, 10);
  expect(file).toBeCloseTo(0.025, 10);
  expect(loaded).toHaveLength(1);
  expect(loaded[0]?.amount).toBeCloseTo(0.025, 10);
});

it("prices fresh, cached and output tokens from model.pricing when the server reports no cost", async () => {
  await start({ promptTokens: 1000, cachedTokens: 400, completionTokens: 100 });
  configure({ model: { pricing: { input: 2, cachedInput: 0.5, output: 10 } } });
  const { live, file } = await twoTurnsThenLoad();
  // 600 fresh × $2 + 400 cached × $0.5 + 100 out × $10, per million: $0.0024 a step.
  expect(live[0]?.amount).toBeCloseTo(0.0024, 10);
  expect(live[1]?.amount).toBeCloseTo(0.0048, 10);
  expect(file).toBeCloseTo(0.0048, 10);
});

it("sends no cost on the spec surface, nor where no price is known", async () => {
  await start({ promptTokens: 1000, completionTokens: 50, cost: 0.0125 });
  configure({}, "spec");
  const spec = spawnAgent({ cwd: root, env: env() });
  const specId = await spec.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd: root, mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "one" }] });
    return sessionId;
  });
  await stop(spec);
  expect(costs(spec.updates, specId)).toEqual([undefined]);
  await server.close();
  await start({ promptTokens: 1000, completionTokens: 50 });
  configure({});
  const unpriced = spawnAgent({ cwd: root, env: env() });
  const id = await unpriced.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd: root, mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "one" }] });
    return sessionId;
  });
  await stop(unpriced);
  expect(costs(unpriced.updates, id)).toEqual([undefined]);
  expect([...spec.problems, ...unpriced.problems]).toEqual([]);
});

const effortOf = (options: readonly acp.SessionConfigOption[] | null | undefined) => options?.find((o) => o.category === "thought_level");

it("offers the reasoning effort where the model takes one, sends it as reasoning_effort, and keeps it with the session", async () => {
  await start({});
  configure({ model: { reasoning: true } });
  const first = spawnAgent({ cwd: root, env: env() });
  const seen = await first.run(async (client) => {
    const created = await client.request("session/new", { cwd: root, mcpServers: [] });
    const { sessionId } = created;
    const offered = effortOf(created.configOptions);
    const set = await client.request("session/set_config_option", { sessionId, configId: "effort", value: "high" });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "think hard" }] });
    const refused = await client.request("session/set_config_option", { sessionId, configId: "effort", value: "extreme" }).then(
      () => "accepted",
      (error: { message?: string; data?: unknown }) => JSON.stringify(error.data ?? error.message),
    );
    return { sessionId, offered, set: effortOf(set.configOptions), refused };
  });
  await stop(first);
  expect(seen.offered).toMatchObject({ id: "effort", type: "select", currentValue: "default" });
  expect((seen.offered as { options: { value: string }[] }).options.map((o) => o.value)).toEqual(["default", "low", "medium", "high"]);
  expect(seen.set).toMatchObject({ currentValue: "high" });
  expect(seen.refused).toContain('unknown reasoning effort \\"extreme\\"');
  expect((server.requests.at(-1)?.body as { reasoning_effort?: unknown } | undefined)?.reasoning_effort).toBe("high");
  // Kept with the session: loaded in another process, the option says high and the next request asks for it.
  const second = spawnAgent({ cwd: root, env: env() });
  const loaded = await second.run(async (client) => {
    const answer = await client.request("session/load", { sessionId: seen.sessionId, cwd: root, mcpServers: [] });
    await client.request("session/prompt", { sessionId: seen.sessionId, prompt: [{ type: "text", text: "again" }] });
    await client.request("session/set_config_option", { sessionId: seen.sessionId, configId: "effort", value: "default" });
    await client.request("session/prompt", { sessionId: seen.sessionId, prompt: [{ type: "text", text: "plain" }] });
    return effortOf(answer.configOptions);
  });
  await stop(second);
  expect(loaded).toMatchObject({ currentValue: "high" });
  const bodies = server.requests.filter((r) => r.method === "POST").map((r) => r.body as { reasoning_effort?: unknown });
  expect(bodies.map((b) => b.reasoning_effort)).toEqual(["high", "high", undefined]);
  expect([...first.problems, ...second.problems]).toEqual([]);
});

it("offers no effort for a model that takes none, and sends none", async () => {
  await start({});
  configure({});
  const agent = spawnAgent({ cwd: root, env: env() });
  const offered = await agent.run(async (client) => {
    const created = await client.request("session/new", { cwd: root, mcpServers: [] });
    await client.request("session/prompt", { sessionId: created.sessionId, prompt: [{ type: "text", text: "hi" }] });
    return created.configOptions?.map((o) => o.category);
  });
  await stop(agent);
  expect(offered).toEqual(["model", "mode"]);
  expect(server.requests.some((r) => r.body !== undefined && "reasoning_effort" in (r.body as object))).toBe(false);
  expect(agent.problems).toEqual([]);
});

it("counts the summary step of /compact in the session's cost", async () => {
  await start({ promptTokens: 1000, completionTokens: 50, cost: 0.0125 });
  configure({ context: { keepLastTurns: 0 } });
  const agent = spawnAgent({ cwd: root, env: env() });
  const sessionId = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd: root, mcpServers: [] });
    for (const text of ["one", "/compact"]) await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
    return sessionId;
  });
  await stop(agent);
  const amounts = costs(agent.updates, sessionId).map((c) => c?.amount);
  expect(amounts).toHaveLength(2);
  expect(amounts[0]).toBeCloseTo(0.0125, 10);
  expect(amounts[1]).toBeCloseTo(0.025, 10);
  expect(agent.problems).toEqual([]);
});

it("sends the effort as reasoning.effort on the Responses API", async () => {
  await start({});
  configure({ model: { api: "responses", reasoning: true } });
  const agent = spawnAgent({ cwd: root, env: env() });
  await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd: root, mcpServers: [] });
    await client.request("session/set_config_option", { sessionId, configId: "effort", value: "low" });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
  });
  await stop(agent);
  const body = server.requests.find((r) => r.path === "/v1/responses")?.body as { reasoning?: { effort?: unknown } } | undefined;
  expect(body?.reasoning?.effort).toBe("low");
  expect(agent.problems).toEqual([]);
});

it("offers the effort for the models the server's list says reason, and drops it on a switch to one that does not", async () => {
  server = await startFakeOpenAI([], { models: ["plain-model", "thinker"], reasoningModels: ["thinker"] });
  configure({});
  const agent = spawnAgent({ cwd: root, env: env("plain-model") });
  const seen = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd: root, mcpServers: [] });
    const set = (configId: string, value: string) => client.request("session/set_config_option", { sessionId, configId, value });
    const ask = (text: string) => client.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
    const plain = await set("mode", "ask");
    const thinker = await set("model", "thinker");
    await set("effort", "medium");
    await ask("think");
    const back = await set("model", "plain-model");
    await ask("plain");
    return { plain: effortOf(plain.configOptions), thinker: effortOf(thinker.configOptions), back: effortOf(back.configOptions) };
  });
  await stop(agent);
  expect(seen.plain).toBeUndefined();
  expect(seen.thinker).toMatchObject({ currentValue: "default" });
  expect(seen.back).toBeUndefined();
  const bodies = server.requests.filter((r) => r.method === "POST").map((r) => r.body as { model?: unknown; reasoning_effort?: unknown });
  expect(bodies.map((b) => [b.model, b.reasoning_effort])).toEqual([
    ["thinker", "medium"],
    ["plain-model", undefined],
  ]);
  expect(agent.problems).toEqual([]);
});

it("drops a kept effort at load when the configuration now says the model takes none", async () => {
  await start({});
  configure({ model: { reasoning: true } });
  const first = spawnAgent({ cwd: root, env: env() });
  const sessionId = await first.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd: root, mcpServers: [] });
    await client.request("session/set_config_option", { sessionId, configId: "effort", value: "high" });
    return sessionId;
  });
  await stop(first);
  configure({ model: { reasoning: false } });
  const second = spawnAgent({ cwd: root, env: env() });
  const options = await second.run(async (client) => {
    const answer = await client.request("session/load", { sessionId, cwd: root, mcpServers: [] });
    await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "plain" }] });
    return answer.configOptions?.map((o) => o.category);
  });
  await stop(second);
  expect(options).toEqual(["model", "mode"]);
  expect((server.requests.at(-1)?.body as { reasoning_effort?: unknown } | undefined)?.reasoning_effort).toBeUndefined();
  expect(second.stderr()).toContain(`session ${sessionId}: reasoning effort high dropped: its model takes none`);
  expect([...first.problems, ...second.problems]).toEqual([]);
});
