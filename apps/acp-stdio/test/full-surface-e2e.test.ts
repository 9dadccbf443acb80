/**
 * The "full" surface end to end: the built mm-acp, spawned with `MM_ACP_SURFACE=full` and sessions
 * kept, against the local fake OpenAI server, driven by the SDK's own client. The model picker is
 * filled from the server's `GET /v1/models`, a switch reaches the next request's `model` field, and a
 * second process lists, resumes and prompts the session with its model and mode kept.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop } from "./spawned-agent.js";

let server: FakeOpenAI;
let cwd: string;

beforeEach(async () => {
  server = await startFakeOpenAI([], { models: ["fake-big", "fake-model", "fake-small"] });
  cwd = mkdtempSync(join(tmpdir(), "mm-full-"));
  writeFileSync(join(cwd, "mm.json"), JSON.stringify({ sessions: { enabled: true } }));
});
afterEach(async () => {
  await server.close();
  rmSync(cwd, { recursive: true, force: true });
});

// The user's state dir (the key that signs the session's model and mode) in the test's own directory.
const env = () => ({
  MM_BASE_URL: server.url,
  OPENAI_API_KEY: "sk-full",
  MM_MODEL: "fake-model",
  MM_ACP_SURFACE: "full",
  XDG_CONFIG_HOME: cwd,
  XDG_STATE_HOME: join(cwd, "state"),
});
const say = (sessionId: string, text: string) => ({ sessionId, prompt: [{ type: "text" as const, text }] });

describe("the full surface, spawned", () => {
  it("model picker from /models, a switch in the next request, modes, then list → resume → prompt in another process", async () => {
    server.enqueue(text("first answer"), toolCalls([{ name: "read_file", arguments: { path: "mm.json" } }]), text("read it"));
    const first = spawnAgent({ env: env(), cwd, args: ["--config", join(cwd, "mm.json")] });
    const sessionId = await first.run(async (client) => {
      const created = await client.request("session/new", { cwd, mcpServers: [] });
      const picker = created.configOptions?.find((o) => o.category === "model") as { currentValue: string; options: { value: string }[] };
      expect(picker.currentValue).toBe("fake-model");
      expect(picker.options.map((o) => o.value)).toEqual(["fake-big", "fake-model", "fake-small"]);
      await client.request("session/prompt", say(created.sessionId, "Summarise mm.json for me"));
      await client.request("session/set_config_option", { sessionId: created.sessionId, configId: "model", value: "fake-big" });
      await client.request("session/set_mode", { sessionId: created.sessionId, modeId: "edits" });
      await client.request("session/prompt", say(created.sessionId, "now read it"));
      return created.sessionId;
    });
    await stop(first);
    const models = server.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => (r.body as { model: string }).model);
    expect(models).toEqual(["fake-model", "fake-big", "fake-big"]);
    expect(first.permissions).toEqual([]);
    expect(first.updates.map((u) => u.update)).toContainEqual(
      expect.objectContaining({ sessionUpdate: "session_info_update", title: "Summarise mm.json for me" }),
    );
    expect(first.problems).toEqual([]);

    server.enqueue(text("welcome back"));
    const second = spawnAgent({ env: env(), cwd, args: ["--config", join(cwd, "mm.json")] });
    await second.run(async (client) => {
      const listed = await client.request("session/list", { cwd });
      expect(listed.sessions).toEqual([{ sessionId, cwd, title: "Summarise mm.json for me", updatedAt: expect.any(String) }]);
      const resumed = await client.request("session/resume", { sessionId, cwd, mcpServers: [] });
      expect(resumed.configOptions?.map((o) => [o.id, o.currentValue])).toEqual([
        ["model", "fake-big"],
        ["mode", "edits"],
      ]);
      expect(await client.request("session/prompt", say(sessionId, "still there?"))).toEqual({ stopReason: "end_turn" });
      expect(await client.request("session/close", { sessionId })).toEqual({});
    });
    await stop(second);
    expect(second.updates.map((u) => u.update.sessionUpdate)).not.toContain("user_message_chunk");
    const last = server.requests.at(-1)!.body as { model: string; messages: { role: string }[] };
    expect(last.model).toBe("fake-big");
    expect(last.messages.filter((m) => m.role === "user")).toHaveLength(3);
    expect(second.problems).toEqual([]);
  });
});
