/**
 * Images are bounded like text (issue 37), end to end through the built mm-acp: an MCP server answers
 * 40 calls each with a 4 MiB image. The session keeps images up to `tools.maxSessionImageBytes`
 * (20 MiB: five of them), the rest become placeholder lines for the model, the editor and the session
 * file; the agent's memory (VmRSS, sampled from /proc) stays flat, and the session file is saved and
 * loads again. A 6 MiB image is over `tools.maxImageBytes` (5 MiB) on its own.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type * as acp from "@agentclientprotocol/sdk";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { removeTempDirs, tempDir } from "./faults/helpers.js";
import { spawnAgent, stop, type SpawnedAgent } from "./spawned-agent.js";

const SERVER = fileURLToPath(new URL("./fixtures/secrets-images-mcp-server.mjs", import.meta.url));
const MiB = 1024 * 1024;

let fake: FakeOpenAI;
let cwd: string;

beforeEach(async () => {
  fake = await startFakeOpenAI();
  cwd = tempDir("mcp-images");
});
afterEach(async () => {
  await fake.close();
});
afterAll(removeTempDirs);

const spawnIn = (): SpawnedAgent => {
  const config = join(cwd, "..", `${cwd.split("/").at(-1)}-config.json`);
  writeFileSync(config, JSON.stringify({ sessions: { enabled: true }, acp: { surface: "full" } }));
  return spawnAgent({ env: { MM_BASE_URL: fake.url, OPENAI_API_KEY: "sk-images-e2e", MM_MODEL: "fake-model" }, cwd, args: ["--config", config] });
};

const picture = (imageBytes: number): acp.McpServerStdio => ({
  name: "cam",
  command: process.execPath,
  args: [SERVER, `--image-bytes=${imageBytes}`],
  env: [],
});

/** VmRSS of a process, in bytes. */
const rssOf = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
};

const completed = (agent: SpawnedAgent) =>
  agent.updates
    .map((u) => u.update)
    .filter((u): u is acp.ToolCallUpdate & { sessionUpdate: "tool_call_update" } => u.sessionUpdate === "tool_call_update" && u.status === "completed");

type SavedResult = { role: string; output?: string; images?: unknown[] };

describe("MCP images are bounded per result and per session", () => {
  it("40 calls answered with a 4 MiB image: five kept, the rest placeholders; memory flat; the session file saved and loadable", {
    timeout: 240_000,
  }, async () => {
    const steps = 4;
    const perStep = 10;
    for (let s = 0; s < steps; s++)
      fake.enqueue(toolCalls(Array.from({ length: perStep }, (_, i) => ({ name: "cam__picture", arguments: { n: s * perStep + i } }))));
    fake.enqueue(text("forty pictures"));
    const agent = spawnIn();
    const samples: { done: number; rss: number }[] = [];
    const sampler = setInterval(() => samples.push({ done: completed(agent).length, rss: rssOf(agent.child.pid!) }), 50);
    const sessionId = await agent
      .run(async (client) => {
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [picture(4 * MiB)] });
        expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "take 40 pictures" }] })).toEqual({ stopReason: "end_turn" });
        return sessionId;
      })
      .finally(() => clearInterval(sampler));
    samples.push({ done: completed(agent).length, rss: rssOf(agent.child.pid!) });
    await stop(agent);
    expect(agent.problems).toEqual([]);

    // Memory: what stays after the collector ran (the lowest VmRSS over a stretch of calls) is the same
    // after 40 calls as after the five kept images; each answer's transient copies come and go (the
    // peaks are logged).
    const floor = (from: number, to: number) => Math.min(...samples.filter((s) => s.done >= from && s.done <= to).map((s) => s.rss));
    const peak = (from: number, to: number) => Math.max(...samples.filter((s) => s.done >= from && s.done <= to).map((s) => s.rss));
    const early = floor(5, 15);
    const late = floor(30, 40);
    console.log(
      `mcp images, VmRSS: lowest over calls 5-15 ${Math.round(early / MiB)} MiB, over calls 30-40 ${Math.round(late / MiB)} MiB; highest ${Math.round(peak(5, 15) / MiB)} and ${Math.round(peak(30, 40) / MiB)} MiB (${samples.length} samples)`,
    );
    expect(late - early).toBeLessThan(100 * MiB);

    // The editor: five updates carry the image, 35 say why there is none.
    const done = completed(agent);
    expect(done).toHaveLength(40);
    const withImage = done.filter((u) => (u.content ?? []).some((c) => c.type === "content" && c.content.type === "image"));
    expect(withImage).toHaveLength(5);
    expect(JSON.stringify(done.at(-1))).toContain("not kept: the session already holds the 20.0 MB of images it keeps (tools.maxSessionImageBytes)");

    // The session file: saved, bounded, five images and 35 placeholders in it.
    const dir = join(cwd, ".mm/sessions");
    const file = join(dir, `${sessionId}.json`);
    const bytes = readdirSync(dir).reduce((total, name) => total + statSync(join(dir, name)).size, 0);
    expect(bytes).toBeLessThan(40 * MiB);
    const journal = join(dir, `${sessionId}.journal`);
    const messages = [
      ...(JSON.parse(readFileSync(file, "utf8")) as { messages: SavedResult[] }).messages,
      ...(readdirSync(dir).includes(`${sessionId}.journal`)
        ? readFileSync(journal, "utf8")
            .split("\n")
            .filter((l) => l !== "")
            .map((l) => (JSON.parse(l) as { message: SavedResult }).message)
        : []),
    ];
    const results = messages.filter((m) => m.role === "tool");
    expect(results).toHaveLength(40);
    expect(results.filter((r) => r.images !== undefined)).toHaveLength(5);
    expect(results.filter((r) => r.output?.includes("not kept: the session already holds"))).toHaveLength(35);

    // And it loads again, the images replayed.
    const second = spawnIn();
    await second.run(async (client) => {
      // The full surface answers the session's modes and models; a load that fails rejects.
      expect(await client.request("session/load", { sessionId, cwd, mcpServers: [] })).toBeDefined();
    });
    await stop(second);
    expect(second.problems).toEqual([]);
    const replayed = second.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call");
    expect(replayed).toHaveLength(40);
    expect(replayed.filter((u) => (u.content ?? []).some((c) => c.type === "content" && c.content.type === "image"))).toHaveLength(5);
  });

  it("an image over tools.maxImageBytes on its own is a placeholder at once", async () => {
    fake.enqueue(toolCalls([{ name: "cam__picture", arguments: {} }]), text("seen"));
    const agent = spawnIn();
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [picture(6 * MiB)] });
      expect(await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "one picture" }] })).toEqual({ stopReason: "end_turn" });
    });
    await stop(agent);
    const [done] = completed(agent);
    expect(JSON.stringify(done)).toContain("[image/png, 6.0 MB, not kept: over the 5.0 MB of images one tool result keeps (tools.maxImageBytes)]");
    expect((done!.content ?? []).some((c) => c.type === "content" && c.content.type === "image")).toBe(false);
    const chat = fake.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => r.body as { messages: { role: string; content: unknown }[] });
    expect(JSON.stringify(chat[1]!.messages.at(-1))).toContain("not kept: over the 5.0 MB");
  });
});
