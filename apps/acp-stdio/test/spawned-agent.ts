/**
 * Spawns the built `mm-acp` binary and connects the SDK's own client to its stdio, recording
 * every line it writes on stdout (each must be a JSON-RPC message) and everything on stderr.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { dirname, join } from "node:path";
import { Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { schemaProblems } from "./acp-schema.js";
import { onLines } from "./stdout-lines.js";

/**
 * The bin the tests spawn: this checkout's, or `MM_TEST_BIN` (another checkout's build), which is how a
 * new test is checked to fail on the code before a change.
 */
export const BIN = process.env.MM_TEST_BIN ?? join(dirname(fileURLToPath(import.meta.url)), "../bin/mm-acp.js");

export type SpawnOptions = {
  /** The program and its first arguments; `node bin/mm-acp.js` of this checkout by default. */
  command?: readonly [string, ...string[]] | undefined;
  env?: Record<string, string>;
  args?: string[];
  cwd?: string;
  permission?: (request: acp.RequestPermissionRequest) => "allow" | "allow_always" | "reject";
  clientCapabilities?: acp.ClientCapabilities;
  /** Answered to every permission request as it is, instead of a choice (a malformed answer). */
  rawPermissionAnswer?: unknown;
  /** Descriptors the agent inherits, by the number it gets them as, as an editor may leave them open. */
  inherit?: Record<number, number>;
  /** Answers `fs/read_text_file` and `fs/write_text_file` (what it throws, e.g. an `acp.RequestError`, is the error answer); unanswered (method not found) when absent. */
  fsAnswer?: (method: "fs/read_text_file" | "fs/write_text_file", params: acp.ReadTextFileRequest | acp.WriteTextFileRequest) => unknown;
  /** Answers `elicitation/create` (the request's signal fires on its `$/cancel_request`); unanswered (method not found) when absent. */
  elicitation?: (
    request: acp.CreateElicitationRequest,
    ctx: { readonly signal: AbortSignal; readonly agent: acp.ClientContext },
  ) => acp.CreateElicitationResponse | Promise<acp.CreateElicitationResponse>;
};

export type SpawnedAgent = {
  child: ChildProcessWithoutNullStreams;
  stdoutLines: string[];
  stderr: () => string;
  problems: string[];
  updates: acp.SessionNotification[];
  permissions: acp.RequestPermissionRequest[];
  elicitations: acp.CreateElicitationRequest[];
  run: <T>(op: (agent: acp.ClientContext) => Promise<T>) => Promise<T>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  textOf: (sessionId: string) => string;
};

export const spawnAgent = (options: SpawnOptions = {}): SpawnedAgent => {
  const [file, ...leading] = options.command ?? [process.execPath, BIN];
  const child = spawn(file, [...leading, ...(options.args ?? [])], {
    cwd: options.cwd ?? process.cwd(),
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", ...options.env },
    stdio: [
      "pipe",
      "pipe",
      "pipe",
      ...Array.from({ length: Math.max(3, ...Object.keys(options.inherit ?? {}).map(Number)) - 2 }, (_, i) => options.inherit?.[i + 3] ?? "ignore"),
    ],
  }) as ChildProcessWithoutNullStreams;
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const stdoutLines: string[] = [];
  const problems: string[] = [];
  const requestMethods = new Map<unknown, string>();
  const forClient = new TransformStream<Uint8Array, Uint8Array>();
  const writer = forClient.writable.getWriter();
  const decoder = new TextDecoder();
  onLines(child.stdout, (line) => {
    stdoutLines.push(line);
    try {
      problems.push(...schemaProblems(JSON.parse(line), requestMethods));
    } catch {
      problems.push(`stdout line is not JSON: ${line.slice(0, 200)}`);
    }
  });
  child.stdout.on("data", (chunk: Buffer) => void writer.write(new Uint8Array(chunk)));
  child.stdout.on("end", () => void writer.close().catch(() => undefined));
  const toAgent = Writable.toWeb(child.stdin) as WritableStream<Uint8Array>;
  const recordingToAgent = new TransformStream<Uint8Array, Uint8Array>({
    transform: (chunk, controller) => {
      for (const line of decoder.decode(chunk).split("\n")) {
        if (line.trim() === "") continue;
        const m = JSON.parse(line) as { id?: unknown; method?: string };
        if (m.method !== undefined && m.id !== undefined) requestMethods.set(m.id, m.method);
      }
      controller.enqueue(chunk);
    },
  });
  void recordingToAgent.readable.pipeTo(toAgent).catch(() => undefined);
  const stream = acp.ndJsonStream(recordingToAgent.writable, forClient.readable);
  const updates: acp.SessionNotification[] = [];
  const permissions: acp.RequestPermissionRequest[] = [];
  const client = acp
    .client({ name: "e2e-client" })
    .onNotification("session/update", ({ params }) => void updates.push(params))
    .onRequest("session/request_permission", async ({ params }) => {
      permissions.push(params);
      if ("rawPermissionAnswer" in options) return options.rawPermissionAnswer as acp.RequestPermissionResponse;
      const choice = options.permission?.(params) ?? "allow";
      return { outcome: { outcome: "selected", optionId: choice } };
    });
  const elicitations: acp.CreateElicitationRequest[] = [];
  const elicitation = options.elicitation;
  if (elicitation !== undefined) {
    client.onRequest("elicitation/create", async ({ params, signal, agent }) => {
      elicitations.push(params);
      return elicitation(params, { signal, agent });
    });
  }
  const fsAnswer = options.fsAnswer;
  if (fsAnswer !== undefined) {
    client
      .onRequest("fs/read_text_file", ({ params }) => fsAnswer("fs/read_text_file", params) as acp.ReadTextFileResponse)
      .onRequest("fs/write_text_file", ({ params }) => fsAnswer("fs/write_text_file", params) as acp.WriteTextFileResponse);
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const run = <T>(op: (agent: acp.ClientContext) => Promise<T>): Promise<T> =>
    client.connectWith(stream, async (agent) => {
      await agent.request("initialize", {
        protocolVersion: 1,
        clientCapabilities: options.clientCapabilities ?? {},
        clientInfo: { name: "e2e-client", version: "1" },
      });
      return op(agent);
    });
  const textOf = (sessionId: string) =>
    updates
      .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === "agent_message_chunk")
      .map((u) => (u.update as { content: { text: string } }).content.text)
      .join("");
  return { child, stdoutLines, stderr: () => stderr, problems, updates, permissions, elicitations, run, exited, textOf };
};

/** Closes stdin and waits for the process to exit. */
export const stop = async (agent: SpawnedAgent): Promise<{ code: number | null; signal: NodeJS.Signals | null }> => {
  agent.child.stdin.end();
  return agent.exited;
};
