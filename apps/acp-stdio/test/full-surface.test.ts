/**
 * The "full" surface (`acp.surface: "full"`), through the SDK's own client over in-memory streams:
 * session history (list, resume, close, delete), titles, the model picker and the permission modes as
 * config options and modes, logout; bad input refused with `invalid params`. Every message the agent
 * sends is checked against the ACP schema. With the switch off, the spec's `method not found`.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { inMemorySessionStore, textReply, toolReply } from "@mm/core/testing";
import type { MmConfig } from "../src/config/index.js";
import { inMemoryAcp, type Options } from "./in-memory-acp.js";

const full =
  (kept = true) =>
  (c: MmConfig): MmConfig => ({ ...c, acp: { surface: "full" }, sessions: { ...c.sessions, enabled: kept }, model: { ...c.model, choices: ["other-model"] } });

const setup = (options: Options = {}) =>
  inMemoryAcp({ config: full(), ports: { listModels: async () => ["test-model", "big-model", "small-model"] }, ...options });

const errorOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as { code: number; data?: { error?: string; sessionId?: unknown } };
  }
  throw new Error("expected an error");
};

const say = (sessionId: string, text: string) => ({ sessionId, prompt: [{ type: "text" as const, text }] });

const optionValue = (options: readonly acp.SessionConfigOption[] | null | undefined, id: string) => options?.find((o) => o.id === id)?.currentValue;

describe("the full surface", () => {
  it("advertises what it implements, and session/new answers the model picker and the modes", async () => {
    const t = setup();
    const { init, created } = await t.run(async (agent) => ({
      init: await agent.request("initialize", { protocolVersion: 1 }),
      created: await agent.request("session/new", { cwd: "/w", mcpServers: [] }),
    }));
    expect(init.agentCapabilities).toEqual({
      loadSession: true,
      sessionCapabilities: { close: {}, additionalDirectories: {}, list: {}, resume: {}, delete: {} },
      mcpCapabilities: { http: true, sse: true },
      auth: { logout: {} },
    });
    const model = created.configOptions?.find((o) => o.id === "model");
    expect(model).toMatchObject({ category: "model", type: "select", currentValue: "test-model" });
    expect((model as { options: { value: string }[] }).options.map((o) => o.value)).toEqual(["test-model", "big-model", "small-model"]);
    expect(created.configOptions?.find((o) => o.id === "mode")).toMatchObject({ category: "mode", currentValue: "ask" });
    expect(created.modes?.currentModeId).toBe("ask");
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(["ask", "edits", "all"]);
    expect(t.problems).toEqual([]);
  });

  it("falls back on model.name and model.choices when the server lists no models", async () => {
    const t = inMemoryAcp({ config: full(), ports: { listModels: async () => undefined } });
    const created = await t.run((agent) => agent.request("session/new", { cwd: "/w", mcpServers: [] }));
    const model = created.configOptions?.find((o) => o.id === "model") as { options: { value: string }[] };
    expect(model.options.map((o) => o.value)).toEqual(["test-model", "other-model"]);
  });

  it("names a session after its first prompt, lists it, resumes it without a replay, and prompts it", async () => {
    const store = inMemorySessionStore();
    const first = setup({ store, replies: [textReply("hi there")] });
    const sessionId = await first.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      await agent.request("session/prompt", say(sessionId, "Fix the flaky test\nin ci.yml please"));
      return sessionId;
    });
    expect(first.updates.map((u) => u.update)).toContainEqual(expect.objectContaining({ sessionUpdate: "session_info_update", title: "Fix the flaky test" }));

    const second = setup({ store, replies: [textReply("resumed")] });
    await second.run(async (agent) => {
      const listed = await agent.request("session/list", { cwd: "/w" });
      expect(listed.sessions).toEqual([{ sessionId, cwd: "/w", title: "Fix the flaky test", updatedAt: expect.any(String) }]);
      expect(listed.nextCursor).toBeUndefined();
      const resumed = await agent.request("session/resume", { sessionId, cwd: "/w", mcpServers: [] });
      expect(optionValue(resumed.configOptions, "mode")).toBe("ask");
      expect(await agent.request("session/prompt", say(sessionId, "and now?"))).toEqual({ stopReason: "end_turn" });
    });
    const kinds = second.updates.map((u) => u.update.sessionUpdate);
    expect(kinds).not.toContain("user_message_chunk");
    expect(kinds).toContain("available_commands_update");
    expect(second.model.requests[0]!.messages.map((m) => m.role === "user" && m.text)).toContain("Fix the flaky test\nin ci.yml please");
    expect(first.problems.concat(second.problems)).toEqual([]);
  });

  it("pages the list newest first with a cursor, lists only the asked cwd, and deletes", async () => {
    const t = setup();
    await t.run(async (agent) => {
      const ids: string[] = [];
      for (let i = 0; i < 53; i++) ids.push((await agent.request("session/new", { cwd: "/w", mcpServers: [] })).sessionId);
      await agent.request("session/new", { cwd: "/elsewhere", mcpServers: [] });
      const page1 = await agent.request("session/list", { cwd: "/w" });
      expect(page1.sessions).toHaveLength(50);
      const page2 = await agent.request("session/list", { cwd: "/w", cursor: page1.nextCursor! });
      expect(page2.nextCursor).toBeUndefined();
      const all = [...page1.sessions, ...page2.sessions].map((s) => s.sessionId);
      expect(all).toEqual([...ids].reverse());
      expect((await errorOf(agent.request("session/list", { cwd: "/w", cursor: "nonsense" }))).code).toBe(-32602);
      expect(await agent.request("session/delete", { sessionId: ids[0]! })).toEqual({});
      expect(await agent.request("session/delete", { sessionId: ids[0]! })).toEqual({});
      // An id not of mm's form is an unknown id like any other (acp-tck ACP-DELETE-002): {}, nothing touched.
      for (const sessionId of ["nope", "../../etc/passwd"]) expect(await agent.request("session/delete", { sessionId })).toEqual({});
      const after = await agent.request("session/list", { cwd: "/w", cursor: page1.nextCursor! });
      expect(after.sessions.map((s) => s.sessionId)).not.toContain(ids[0]);
      expect((await errorOf(agent.request("session/prompt", say(ids[0]!, "still there?")))).code).toBe(-32602);
    });
    expect(t.problems).toEqual([]);
  });

  it("switches the model from the next request on, and keeps model and mode across a load", async () => {
    const store = inMemorySessionStore();
    const t = setup({ store, replies: [textReply("one"), textReply("two")] });
    const sessionId = await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      await agent.request("session/prompt", say(sessionId, "first"));
      const set = await agent.request("session/set_config_option", { sessionId, configId: "model", value: "big-model" });
      expect(optionValue(set.configOptions, "model")).toBe("big-model");
      await agent.request("session/set_config_option", { sessionId, configId: "mode", value: "edits" });
      await agent.request("session/prompt", say(sessionId, "second"));
      return sessionId;
    });
    expect(t.model.requests.map((r) => r.model)).toEqual([undefined, "big-model"]);
    expect(t.updates.map((u) => u.update)).toContainEqual({ sessionUpdate: "current_mode_update", currentModeId: "edits" });

    const reloaded = setup({ store });
    const loaded = await reloaded.run((agent) => agent.request("session/load", { sessionId, cwd: "/w", mcpServers: [] }));
    expect(optionValue(loaded.configOptions, "model")).toBe("big-model");
    expect(optionValue(loaded.configOptions, "mode")).toBe("edits");
    expect(loaded.modes?.currentModeId).toBe("edits");
    expect(t.problems.concat(reloaded.problems)).toEqual([]);
  });

  it.each([
    ["ask", ["bash: ls", "read_file: a.txt", "write_file: b.txt"]],
    ["edits", ["bash: ls"]],
    ["all", []],
  ] as const)("mode %s asks before %j", async (mode, asked) => {
    const t = setup({
      files: { "/w/a.txt": "a" },
      replies: [
        toolReply([
          { name: "bash", input: { command: "ls" } },
          { name: "read_file", input: { path: "a.txt" } },
          { name: "write_file", input: { path: "b.txt", content: "b" } },
        ]),
        textReply("done"),
      ],
    });
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      await agent.request("session/set_mode", { sessionId, modeId: mode });
      expect(await agent.request("session/prompt", say(sessionId, "go"))).toEqual({ stopReason: "end_turn" });
    });
    expect(t.permissions.map((p) => p.toolCall.title)).toEqual(asked);
    expect(t.shell.requests).toHaveLength(1);
    expect(t.fs.files.get("/w/b.txt")).toBe("b");
    expect(t.updates.map((u) => u.update)).toContainEqual(expect.objectContaining({ sessionUpdate: "config_option_update" }));
    expect(t.problems).toEqual([]);
  });

  it("closes a session: its turn is cancelled and it is gone; logout answers {}", async () => {
    const t = setup();
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expect(await agent.request("session/close", { sessionId })).toEqual({});
      expect((await errorOf(agent.request("session/prompt", say(sessionId, "hello?")))).code).toBe(-32602);
      expect((await errorOf(agent.request("session/close", { sessionId }))).data).toMatchObject({ sessionId, error: "unknown session" });
      expect(await agent.request("logout", {})).toEqual({});
    });
    expect(t.problems).toEqual([]);
  });

  it("refuses bad input with invalid params and the reason, changing nothing", async () => {
    const t = setup();
    await t.run(async (agent) => {
      const { sessionId } = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      const cases: [string, unknown, RegExp][] = [
        ["session/set_config_option", { sessionId: "20260101-000000-00000000", configId: "model", value: "big-model" }, /unknown session/],
        ["session/set_config_option", { sessionId, configId: "colour", value: "red" }, /unknown config option "colour"/],
        ["session/set_config_option", { sessionId, configId: "model", value: "gpt-9" }, /unknown model "gpt-9"/],
        ["session/set_config_option", { sessionId, configId: "mode", value: "yolo" }, /unknown mode "yolo"/],
        ["session/set_mode", { sessionId, modeId: "yolo" }, /unknown mode/],
        ["session/resume", { sessionId: "../../etc/passwd", cwd: "/w", mcpServers: [] }, /not a session id/],
        ["session/resume", { sessionId: "20260101-000000-00000000", cwd: "/w", mcpServers: [] }, /no saved session/],
        ["session/list", { cwd: "relative/dir" }, /absolute/],
      ];
      for (const [method, params, reason] of cases) {
        const error = await errorOf(agent.request(method, params));
        expect(error.code, method).toBe(-32602);
        expect(error.data?.error, method).toMatch(reason);
      }
      for (const params of [{ sessionId, configId: 7, value: "x" }, { sessionId }, { sessionId, configId: "model", value: ["x"] }]) {
        expect((await errorOf(agent.request("session/set_config_option", params))).code).toBe(-32602);
      }
      const now = await agent.request("session/set_config_option", { sessionId, configId: "mode", value: "ask" });
      expect(optionValue(now.configOptions, "model")).toBe("test-model");
    });
    expect(t.problems).toEqual([]);
  });

  it("without sessions kept: close, config options and modes, but no list, resume or delete", async () => {
    const t = inMemoryAcp({ config: full(false) });
    await t.run(async (agent) => {
      const init = await agent.request("initialize", { protocolVersion: 1 });
      expect(init.agentCapabilities).toEqual({
        sessionCapabilities: { close: {}, additionalDirectories: {} },
        mcpCapabilities: { http: true, sse: true },
        auth: { logout: {} },
      });
      for (const method of ["session/list", "session/resume", "session/delete", "session/load"]) {
        expect((await errorOf(agent.request(method, { sessionId: "x", cwd: "/w", mcpServers: [] }))).code).toBe(-32601);
      }
    });
    expect(t.problems).toEqual([]);
  });
});

describe("with the switch off (the spec surface)", () => {
  it("answers method not found to every method of the full surface, and nothing of it is advertised or sent", async () => {
    const t = inMemoryAcp({ config: (c) => ({ ...c, sessions: { ...c.sessions, enabled: true } }), replies: [textReply("ok")] });
    await t.run(async (agent) => {
      const init = await agent.request("initialize", { protocolVersion: 1 });
      expect(init.agentCapabilities).toEqual({ loadSession: true });
      const created = await agent.request("session/new", { cwd: "/w", mcpServers: [] });
      expect(created).toEqual({ sessionId: created.sessionId });
      await agent.request("session/prompt", say(created.sessionId, "hello"));
      for (const method of ["session/list", "session/resume", "session/close", "session/delete", "session/set_mode", "session/set_config_option", "logout"]) {
        expect(
          (await errorOf(agent.request(method, { sessionId: created.sessionId, cwd: "/w", mcpServers: [], configId: "mode", value: "all", modeId: "all" })))
            .code,
          method,
        ).toBe(-32601);
      }
    });
    expect(t.updates.map((u) => u.update.sessionUpdate)).not.toContain("session_info_update");
    expect(t.problems).toEqual([]);
  });
});
