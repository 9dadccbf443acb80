/**
 * `additionalDirectories` end to end through the built binary on the full surface: advertised as
 * `sessionCapabilities.additionalDirectories`; under the sandox (bubblewrap) a tool writes into an
 * additional directory and a command's change there shows as its diff, `/undo` putting it back, while a
 * directory the editor did not give stays read-only; a relative `@path` resolves in it; a missing
 * directory (or a file) is refused with `invalid params` naming it, on session/new, load and resume.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnAgent, stop, type SpawnedAgent } from "./spawned-agent.js";
import { bwrapSkipReason } from "./bwrap-probe.js";
import { caseDirs } from "./case-dirs.js";

const root = mkdtempSync(join(tmpdir(), "mm-more-folders-"));
const noSandbox = await bwrapSkipReason(root);

let server: FakeOpenAI;
let cwd: string;
let home: string;
let extra: string;
let outside: string;
beforeEach(async () => {
  server = await startFakeOpenAI([], { defaultReply: () => text("ok") });
  [cwd, home, extra, outside] = caseDirs(root, "project", "home", "library", "outside");
});
afterEach(() => server.close());
afterAll(() => rmSync(root, { recursive: true, force: true }));

const spawn = (settings: Record<string, unknown> = {}, surface = "full"): SpawnedAgent => {
  const config = join(home, "mm.json");
  writeFileSync(config, JSON.stringify({ sessions: { enabled: true }, ...settings }));
  return spawnAgent({
    cwd,
    args: ["--config", config],
    env: { MM_BASE_URL: server.url, OPENAI_API_KEY: "sk-x", MM_MODEL: "m", HOME: home, XDG_STATE_HOME: join(home, "state"), MM_ACP_SURFACE: surface },
  });
};

const prompt = async (client: acp.ClientContext, sessionId: string, words: string): Promise<string> =>
  ((await client.request("session/prompt", { sessionId, prompt: [{ type: "text", text: words }] })) as acp.PromptResponse).stopReason;

/** The last update of each call that ended, in order. */
const endedCalls = (agent: SpawnedAgent) =>
  agent.updates
    .map((u) => u.update)
    .filter(
      (u): u is acp.ToolCallUpdate & { sessionUpdate: "tool_call_update" } =>
        u.sessionUpdate === "tool_call_update" && (u.status === "completed" || u.status === "failed"),
    );

const lastChunk = (agent: SpawnedAgent, sessionId: string): string => {
  const chunks = agent.updates.filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "agent_message_chunk");
  return (chunks.at(-1)?.update as { content: { text: string } } | undefined)?.content.text ?? "";
};

/** The JSON-RPC error a request failed with. */
const failure = async (request: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> => {
  try {
    await request;
  } catch (error) {
    return error as { code: number; message: string; data?: unknown };
  }
  throw new Error("the request did not fail");
};

describe("additionalDirectories", () => {
  it("is advertised on the full surface only", async () => {
    const full = spawn();
    const init = await full.run((client) => client.request("initialize", { protocolVersion: 1, clientCapabilities: {} }));
    await stop(full);
    expect((init as acp.InitializeResponse).agentCapabilities?.sessionCapabilities?.additionalDirectories).toEqual({});
    const spec = spawn({}, "spec");
    const specInit = await spec.run((client) => client.request("initialize", { protocolVersion: 1, clientCapabilities: {} }));
    await stop(spec);
    expect((specInit as acp.InitializeResponse).agentCapabilities?.sessionCapabilities?.additionalDirectories).toBeUndefined();
  });

  it.skipIf(noSandbox !== undefined)(
    "under the sandbox, a tool writes into an additional directory, a command's change there shows its diff, /undo puts it back",
    async () => {
      writeFileSync(join(extra, "a.txt"), "library\n");
      writeFileSync(join(extra, ".env"), "TOKEN=library-secret\n");
      writeFileSync(join(outside, "o.txt"), "outside\n");
      server.enqueue(
        toolCalls([
          { name: "write_file", arguments: { path: join(extra, "new.txt"), content: "made\n" } },
          { name: "bash", arguments: { command: `cat ${join(extra, ".env")}; echo end` } },
          { name: "read_file", arguments: { path: join(extra, ".env") } },
          { name: "bash", arguments: { command: `echo changed > ${join(extra, "a.txt")}` } },
          { name: "bash", arguments: { command: `echo no > ${join(outside, "o.txt")}` } },
        ]),
        text("done"),
      );
      const agent = spawn({ tools: { sandbox: "workspace", hidden: [".env"] } });
      const sessionId = await agent.run(async (client) => {
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [], additionalDirectories: [extra] });
        await prompt(client, sessionId, "change the library");
        expect(readFileSync(join(extra, "new.txt"), "utf8")).toBe("made\n");
        expect(readFileSync(join(extra, "a.txt"), "utf8")).toBe("changed\n");
        await prompt(client, sessionId, "/undo");
        return sessionId;
      });
      await stop(agent);
      const [write, catEnv, readEnv, bash, bashOutside] = endedCalls(agent);
      // tools.hidden's `.env` is hidden in the additional directory as in the cwd.
      expect(JSON.stringify(catEnv?.content)).not.toContain("library-secret");
      expect(readEnv?.status).toBe("failed");
      expect(JSON.stringify(readEnv?.content)).not.toContain("library-secret");
      expect(write?.status).toBe("completed");
      expect(bash?.status).toBe("completed");
      expect(bash?.content).toContainEqual({ type: "diff", path: join(extra, "a.txt"), oldText: "library\n", newText: "changed\n" });
      // A directory the editor did not give is not writable (here, under /tmp, the command wrote the
      // sandbox's private one: the host's file is as it was).
      expect(bashOutside?.status).toBeDefined();
      expect(readFileSync(join(outside, "o.txt"), "utf8")).toBe("outside\n");
      expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 1 removed/);
      expect(readFileSync(join(extra, "a.txt"), "utf8")).toBe("library\n");
      expect(existsSync(join(extra, "new.txt"))).toBe(false);
      expect(agent.problems).toEqual([]);
    },
  );

  it("without the sandbox too, a command's change in an additional directory shows its diff and /undo puts it back", async () => {
    writeFileSync(join(extra, "a.txt"), "library\n");
    server.enqueue(
      toolCalls([{ name: "bash", arguments: { command: `echo changed > ${join(extra, "a.txt")} && echo new > ${join(extra, "b.txt")}` } }]),
      text("done"),
    );
    const agent = spawn();
    const sessionId = await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [], additionalDirectories: [extra] });
      await prompt(client, sessionId, "change the library");
      expect(readFileSync(join(extra, "a.txt"), "utf8")).toBe("changed\n");
      await prompt(client, sessionId, "/undo");
      return sessionId;
    });
    await stop(agent);
    expect(endedCalls(agent)[0]?.content).toContainEqual({ type: "diff", path: join(extra, "a.txt"), oldText: "library\n", newText: "changed\n" });
    expect(lastChunk(agent, sessionId)).toMatch(/^↩ undid the last turn: 1 file\(s\) restored, 1 removed/);
    expect(readFileSync(join(extra, "a.txt"), "utf8")).toBe("library\n");
    expect(existsSync(join(extra, "b.txt"))).toBe(false);
    expect(agent.problems).toEqual([]);
  });

  it("counts as the project for the permission rules: in 'edits' mode an edit there goes unasked, one elsewhere is asked", async () => {
    server.enqueue(
      toolCalls([
        { name: "write_file", arguments: { path: join(extra, "in-library.txt"), content: "ok\n" } },
        { name: "write_file", arguments: { path: join(outside, "elsewhere.txt"), content: "asked\n" } },
      ]),
      text("done"),
    );
    const agent = spawn();
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [], additionalDirectories: [extra] });
      await client.request("session/set_mode", { sessionId, modeId: "edits" });
      await prompt(client, sessionId, "write");
    });
    await stop(agent);
    expect(readFileSync(join(extra, "in-library.txt"), "utf8")).toBe("ok\n");
    expect(agent.permissions.map((p) => p.toolCall.title)).toEqual([`write_file: ${join(outside, "elsewhere.txt")}`]);
  });

  it("a relative @path resolves in an additional directory when the cwd has no such file", async () => {
    writeFileSync(join(extra, "notes.md"), "# notes\n");
    const agent = spawn();
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [], additionalDirectories: [extra] });
      await prompt(client, sessionId, "read @notes.md please");
    });
    await stop(agent);
    const body = JSON.stringify(server.requests.filter((r) => r.method === "POST").at(-1)?.body);
    expect(body).toContain(`[attached file: ${join(extra, "notes.md")}]`);
    // The model is told of the folder.
    expect(body).toContain(`Additional directories (yours to read and change as the working directory): ${extra}`);
  });

  it("refuses a missing directory, a file and a relative path with invalid params naming it, on session/new, load and resume", async () => {
    writeFileSync(join(home, "file.txt"), "x\n");
    const missing = join(root, "no-such-dir");
    const agent = spawn();
    await agent.run(async (client) => {
      for (const [dir, why] of [
        [missing, `additional directory does not exist: ${missing}`],
        [join(home, "file.txt"), `additional directory is not a directory: ${join(home, "file.txt")}`],
        ["relative/dir", "not an absolute path: relative/dir"],
      ] as const) {
        const error = await failure(client.request("session/new", { cwd, mcpServers: [], additionalDirectories: [extra, dir] }));
        expect(error.code).toBe(-32602);
        expect(error.data).toEqual({ additionalDirectories: dir, error: why });
        expect(error.message).toContain(dir);
      }
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [], additionalDirectories: [extra] });
      await prompt(client, sessionId, "hello");
      const load = await failure(client.request("session/load", { sessionId, cwd, mcpServers: [], additionalDirectories: [missing] }));
      expect(load.code).toBe(-32602);
      expect(load.data).toEqual({ additionalDirectories: missing, error: `additional directory does not exist: ${missing}` });
      const resume = await failure(client.request("session/resume", { sessionId, cwd, mcpServers: [], additionalDirectories: [missing] }));
      expect(resume.code).toBe(-32602);
      // Given as they should be, both work.
      await client.request("session/load", { sessionId, cwd, mcpServers: [], additionalDirectories: [extra] });
      await client.request("session/resume", { sessionId, cwd, mcpServers: [], additionalDirectories: [extra] });
    });
    await stop(agent);
    expect(agent.problems).toEqual([]);
  });
});
