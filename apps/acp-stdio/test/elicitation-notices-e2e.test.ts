/**
 * Questions the editor answers and notices (issue 40), end to end through the built mm-acp on the
 * "full" surface: with a client advertising `elicitation.form` the model is offered `ask_user`, whose
 * call becomes an `elicitation/create` form tied to the tool call (never a permission request); the
 * answer, a decline and a dismissed form each reach the model as such; a turn cancelled while the form
 * is up withdraws it (`$/cancel_request`). Without the capability (or on the spec surface) the tool is
 * not offered. mm's own lines that are no answer (an answer cut off, an MCP server that failed to
 * start, a shipped session file's mode not applied) go as `notice` updates to a client advertising
 * `session.notices`, as answer text otherwise.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { frames, startFakeOpenAI, text, toolCalls, type FakeOpenAI } from "@mm/fake-openai";
import { spawnAgent, stop, type SpawnOptions } from "./spawned-agent.js";

let fake: FakeOpenAI;
let cwd: string;

beforeEach(async () => {
  fake = await startFakeOpenAI();
  cwd = mkdtempSync(join(tmpdir(), "mm-elicit-"));
});
afterEach(async () => {
  await fake.close();
  rmSync(cwd, { recursive: true, force: true });
});

const env = (surface: "full" | "spec" = "full") => ({
  MM_BASE_URL: fake.url,
  OPENAI_API_KEY: "sk-el",
  MM_MODEL: "fake-model",
  MM_ACP_SURFACE: surface,
  XDG_CONFIG_HOME: cwd,
});
const FORMS: acp.ClientCapabilities = { elicitation: { form: {} } };
const NOTICES: acp.ClientCapabilities = { session: { notices: {} } };
const say = (sessionId: string, t: string) => ({ sessionId, prompt: [{ type: "text" as const, text: t }] });

type ChatBody = { messages: { role: string; content?: unknown; tool_call_id?: string }[]; tools?: { function: { name: string } }[] };
/** The i-th chat request's body (the model list the full surface asks for aside). */
const bodyOf = (i: number): ChatBody => fake.requests.filter((r) => r.path.endsWith("/chat/completions"))[i]!.body as ChatBody;
const toolNames = (i: number): string[] => (bodyOf(i).tools ?? []).map((t) => t.function.name);
/** What the model was told of its calls, in the request after them. */
const toolResults = (i: number): string[] =>
  bodyOf(i)
    .messages.filter((m) => m.role === "tool")
    .map((m) => String(m.content));

const ASK = toolCalls([{ name: "ask_user", arguments: { question: "Which database?", choices: ["postgres", "sqlite"] } }]);

/** One turn in which the model asks, the client answering with `elicitation`. */
const askedTurn = async (elicitation: NonNullable<SpawnOptions["elicitation"]>) => {
  fake.enqueue(ASK, text("noted"));
  const agent = spawnAgent({ env: env(), cwd, clientCapabilities: FORMS, elicitation });
  const result = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
    const { stopReason } = (await client.request("session/prompt", say(sessionId, "set up the app"))) as acp.PromptResponse;
    return { sessionId, stopReason };
  });
  await stop(agent);
  return { agent, ...result };
};

const toolUpdates = (agent: { updates: acp.SessionNotification[] }) =>
  agent.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") as (acp.SessionUpdate & {
    toolCallId: string;
    status?: string;
  })[];

describe("ask_user through the editor's form (full surface)", () => {
  it("asks with a form tied to the tool call, no permission asked, and gives the model the answer", async () => {
    const { agent, sessionId, stopReason } = await askedTurn(() => ({ action: "accept", content: { answer: "sqlite" } }));
    expect(stopReason).toBe("end_turn");
    expect(toolNames(0)).toContain("ask_user");
    const call = toolUpdates(agent)[0]!;
    expect(agent.elicitations).toEqual([
      {
        mode: "form",
        sessionId,
        toolCallId: call.toolCallId,
        message: "Which database?",
        requestedSchema: { type: "object", properties: { answer: { type: "string", title: "Answer", enum: ["postgres", "sqlite"] } }, required: ["answer"] },
      },
    ]);
    expect(agent.permissions).toEqual([]);
    expect(toolResults(1)).toEqual(["The user answered: sqlite"]);
    expect(toolUpdates(agent).at(-1)).toMatchObject({ toolCallId: call.toolCallId, status: "completed" });
    expect(agent.problems).toEqual([]);
  });

  it("tells the model a declined form and a dismissed one as such", async () => {
    const declined = await askedTurn(() => ({ action: "decline" }));
    expect(toolResults(1)).toEqual(["[the user declined to answer the question]"]);
    expect(toolUpdates(declined.agent).at(-1)).toMatchObject({ status: "failed" });
    expect(declined.agent.problems).toEqual([]);
    fake.requests.length = 0;
    const dismissed = await askedTurn(() => ({ action: "cancel" }));
    expect(toolResults(1)).toEqual(["[the user dismissed the question without answering]"]);
    expect(dismissed.agent.problems).toEqual([]);
  });

  it("a free question asks for a short string; an answer the form did not carry is no answer", async () => {
    fake.enqueue(toolCalls([{ name: "ask_user", arguments: { question: "Project name?" } }]), text("ok"));
    const agent = spawnAgent({ env: env(), cwd, clientCapabilities: FORMS, elicitation: () => ({ action: "accept", content: {} }) });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      await client.request("session/prompt", say(sessionId, "go"));
    });
    await stop(agent);
    expect((agent.elicitations[0] as { requestedSchema: unknown }).requestedSchema).toEqual({
      type: "object",
      properties: { answer: { type: "string", title: "Answer", maxLength: 2000 } },
      required: ["answer"],
    });
    expect(toolResults(1)).toEqual(["[the question could not be asked: the editor's form came back without an answer]"]);
    expect(agent.problems).toEqual([]);
  });

  it("a turn cancelled while the form is up withdraws it with $/cancel_request, and the session goes on", async () => {
    fake.enqueue(ASK, text("after"));
    let withdrawn = false;
    const agent = spawnAgent({
      env: env(),
      cwd,
      clientCapabilities: FORMS,
      elicitation: async (request, { signal, agent: toAgent }) => {
        const { sessionId } = request as { sessionId: string };
        const aborted = new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
        await toAgent.notify("session/cancel", { sessionId });
        await aborted;
        withdrawn = true;
        return { action: "cancel" };
      },
    });
    await agent.run(async (client) => {
      const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
      expect(await client.request("session/prompt", say(sessionId, "set up the app"))).toEqual({ stopReason: "cancelled" });
      expect(await client.request("session/prompt", say(sessionId, "never mind"))).toEqual({ stopReason: "end_turn" });
    });
    await stop(agent);
    expect(withdrawn).toBe(true);
    const sent = agent.stdoutLines.map((l) => JSON.parse(l) as { id?: unknown; method?: string; params?: { requestId?: unknown } });
    const asked = sent.find((m) => m.method === "elicitation/create");
    expect(sent.filter((m) => m.method === "$/cancel_request").map((m) => m.params?.requestId)).toEqual([asked?.id]);
    expect(toolUpdates(agent).at(-1)).toMatchObject({ status: "failed" });
    expect(agent.textOf(agent.updates[0]!.sessionId)).toContain("after");
    expect(agent.problems).toEqual([]);
  });

  it("is not offered without the capability, nor on the spec surface", async () => {
    for (const [surface, capabilities] of [
      ["full", {}],
      ["full", { elicitation: { url: {} } }],
      ["spec", FORMS],
    ] as const) {
      fake.requests.length = 0;
      fake.enqueue(text("hi"));
      const agent = spawnAgent({ env: env(surface), cwd, clientCapabilities: capabilities });
      await agent.run(async (client) => {
        const { sessionId } = await client.request("session/new", { cwd, mcpServers: [] });
        await client.request("session/prompt", say(sessionId, "hi"));
      });
      await stop(agent);
      expect(toolNames(0)).toContain("bash");
      expect(toolNames(0)).not.toContain("ask_user");
      expect(JSON.stringify(bodyOf(0).messages[0])).not.toContain("ask_user");
      expect(agent.problems).toEqual([]);
    }
  });
});

/** A chat stream the model's output limit cut off. */
const cutOff = () =>
  frames([
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "fake-model", choices: [{ index: 0, delta: { role: "assistant", content: "A long ans" }, finish_reason: null }] })}\n\n`,
    `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", created: 0, model: "fake-model", choices: [{ index: 0, delta: {}, finish_reason: "length" }] })}\n\n`,
    "data: [DONE]\n\n",
  ]);

const broken: acp.McpServerStdio = { name: "broken", command: "/nonexistent/mcp-server", args: [], env: [] };

const noticeRun = async (capabilities: acp.ClientCapabilities) => {
  fake.enqueue(cutOff());
  const agent = spawnAgent({ env: env(), cwd, clientCapabilities: capabilities });
  const sessionId = await agent.run(async (client) => {
    const { sessionId } = await client.request("session/new", { cwd, mcpServers: [broken] });
    expect(await client.request("session/prompt", say(sessionId, "write a lot"))).toEqual({ stopReason: "max_tokens" });
    return sessionId;
  });
  await stop(agent);
  return { agent, sessionId, notices: agent.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "notice") };
};

describe("notices (full surface)", () => {
  it("go as notice updates, not answer text, to a client advertising session.notices", async () => {
    const { agent, sessionId, notices } = await noticeRun(NOTICES);
    expect(notices).toEqual([
      expect.objectContaining({ sessionUpdate: "notice", severity: "warning", title: 'MCP server "broken" failed to start' }),
      { sessionUpdate: "notice", severity: "warning", title: "Answer cut off", description: "the model reached its output limit" },
    ]);
    expect(agent.textOf(sessionId)).toBe("A long ans");
    expect(agent.problems).toEqual([]);
  });

  it("a shipped session file's mode not applied is a notice after the replay, not conversation text", async () => {
    const id = "20260101-000000-0badc0de";
    mkdirSync(join(cwd, ".mm/sessions"), { recursive: true });
    const at = new Date(0).toISOString();
    const messages = [
      { role: "system", text: "old prompt" },
      { role: "user", text: "set the project up" },
      { role: "assistant", text: "Sure.", toolCalls: [] },
    ];
    const document = { format: "mm-session", version: 1, id, cwd, createdAt: at, updatedAt: at, title: "setup", mode: "all", messages };
    writeFileSync(join(cwd, ".mm/sessions", `${id}.json`), `${JSON.stringify(document)}\n`);
    writeFileSync(join(cwd, "mm.json"), JSON.stringify({ sessions: { enabled: true } }));
    for (const capabilities of [NOTICES, {}]) {
      const agent = spawnAgent({
        env: { ...env(), XDG_STATE_HOME: join(cwd, "state") },
        cwd,
        clientCapabilities: capabilities,
        args: ["--config", join(cwd, "mm.json")],
      });
      await agent.run((client) => client.request("session/load", { sessionId: id, cwd, mcpServers: [] }));
      await stop(agent);
      const notices = agent.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "notice");
      if (capabilities === NOTICES) {
        expect(notices).toEqual([
          expect.objectContaining({
            severity: "warning",
            title: 'Session loaded in "ask" mode on the configured model',
            description: expect.stringMatching(/^this session's file asks for permission mode "all"/),
          }),
        ]);
        expect(agent.textOf(id)).not.toContain("not written by your mm");
      } else {
        expect(notices).toEqual([]);
        expect(agent.textOf(id)).toContain('mm: this session\'s file asks for permission mode "all"');
      }
      expect(agent.problems).toEqual([]);
    }
  });

  it("stay answer text without the capability", async () => {
    const { agent, sessionId, notices } = await noticeRun({});
    expect(notices).toEqual([]);
    expect(agent.textOf(sessionId)).toMatch(/MCP server "broken" failed to start/);
    expect(agent.textOf(sessionId)).toContain("A long ans\n[answer cut off: the model reached its output limit]\n");
    expect(agent.problems).toEqual([]);
  });
});
