/**
 * Drives the ACP front end through the SDK's own client over in-memory streams, recording every
 * message on the wire in order, and validating each one the agent sends against the ACP schema.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { MmConfig } from "../src/config/index.js";
import {
  counterHex,
  inMemoryFileSystem,
  inMemorySessionStore,
  inMemorySkillCatalogue,
  manualClock,
  scriptedModel,
  scriptedShell,
  type InMemorySkill,
  type ScriptedReply,
  type ShellScript,
} from "@mm/core/testing";
import type { SessionStore } from "@mm/core";
import { serve, type AppPorts } from "../src/wiring/serve.js";
import { schemaProblems } from "./acp-schema.js";
import { testConfig } from "./test-config.js";

type Raw = { id?: unknown; method?: string; params?: unknown; result?: unknown; error?: unknown };

export type PermissionAnswer = "allow" | "allow_always" | "reject" | "cancelled";

export type Options = {
  replies?: ScriptedReply[];
  files?: Record<string, string>;
  shell?: ShellScript;
  skills?: InMemorySkill[];
  permission?: PermissionAnswer | ((request: acp.RequestPermissionRequest) => PermissionAnswer | Promise<PermissionAnswer>);
  config?: (base: MmConfig) => MmConfig;
  store?: SessionStore;
  ports?: Partial<AppPorts>;
  /** The editor's buffers: when given, the client serves fs/read_text_file and fs/write_text_file from it. */
  editorFiles?: Map<string, string>;
  /** What the agent is served on, given the recorded in-memory stream (the stream itself by default). */
  wrapStream?: (stream: acp.Stream) => acp.Stream;
};

const tap = (writable: WritableStream<acp.AnyMessage>, record: (m: acp.AnyMessage) => void): WritableStream<acp.AnyMessage> => {
  const writer = writable.getWriter();
  return new WritableStream({
    write: async (m) => {
      record(JSON.parse(JSON.stringify(m)) as acp.AnyMessage);
      await writer.write(m);
    },
    close: () => writer.close(),
  });
};

export const inMemoryAcp = (options: Options = {}) => {
  const model = scriptedModel(...(options.replies ?? []));
  const fs = inMemoryFileSystem(options.files ?? {});
  const shell = scriptedShell(options.shell);
  const config = (options.config ?? ((c) => c))(testConfig());
  const store = options.store ?? (config.sessions.enabled ? inMemorySessionStore() : undefined);
  const ports: AppPorts = {
    model,
    fs,
    shell,
    skills: inMemorySkillCatalogue(options.skills ?? []),
    store,
    clock: manualClock(),
    random: counterHex(),
    ...options.ports,
  };
  const wire: { from: "agent" | "client"; message: Raw }[] = [];
  const requestMethods = new Map<unknown, string>();
  const problems: string[] = [];
  const logs: string[] = [];
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];

  const toClient = new TransformStream<acp.AnyMessage, acp.AnyMessage>();
  const toAgent = new TransformStream<acp.AnyMessage, acp.AnyMessage>();
  const agentStream: acp.Stream = {
    readable: toAgent.readable,
    writable: tap(toClient.writable, (m) => {
      wire.push({ from: "agent", message: m as Raw });
      problems.push(...schemaProblems(m as Raw, requestMethods));
    }),
  };
  const clientStream: acp.Stream = {
    readable: toClient.readable,
    writable: tap(toAgent.writable, (m) => {
      const raw = m as Raw;
      wire.push({ from: "client", message: raw });
      if (raw.method !== undefined && raw.id !== undefined) requestMethods.set(raw.id, raw.method);
    }),
  };
  const served = serve(config, ports, options.wrapStream?.(agentStream) ?? agentStream, { os: "linux x64", home: "/home/u", info: (l) => logs.push(l) });

  const answer = options.permission ?? "allow";
  const client = acp
    .client({ name: "test-client" })
    .onNotification("session/update", ({ params }) => void updates.push(params))
    .onRequest("session/request_permission", async ({ params }) => {
      permissions.push(params);
      const choice = typeof answer === "function" ? await answer(params) : answer;
      return choice === "cancelled" ? { outcome: { outcome: "cancelled" } } : { outcome: { outcome: "selected", optionId: choice } };
    });

  const editorFiles = options.editorFiles;
  if (editorFiles !== undefined) {
    client
      .onRequest("fs/read_text_file", ({ params }) => {
        const content = editorFiles.get(params.path);
        if (content === undefined) throw new Error(`no buffer for ${params.path}`);
        return { content };
      })
      .onRequest("fs/write_text_file", ({ params }) => {
        editorFiles.set(params.path, params.content);
        return {};
      });
  }

  /** Runs `op` with a connected client, having initialised it. */
  const run = <T>(op: (agent: acp.ClientContext) => Promise<T>, clientCapabilities: acp.ClientCapabilities = {}): Promise<T> =>
    client.connectWith(clientStream, async (agent) => {
      await agent.request("initialize", { protocolVersion: 1, clientCapabilities, clientInfo: { name: "test-client", version: "1.0" } });
      return op(agent);
    });

  const textOf = (sessionId: string): string =>
    updates
      .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "agent_message_chunk")
      .map((u) => (u.update as { content: { text: string } }).content.text)
      .join("");

  return { run, model, fs, shell, store, wire, problems, logs, updates, permissions, served, textOf };
};
