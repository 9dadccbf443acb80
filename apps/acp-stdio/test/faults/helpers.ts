/**
 * Shared tools of the fault-injection suite: a raw JSON-RPC driver of the spawned `mm-acp` (lines in,
 * lines out, nothing between), process-tree and /proc probes, and small waiting helpers.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN } from "../spawned-agent.js";
import { onLines } from "../stdout-lines.js";

export type JsonRpcMessage = {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

/** Why `line` is not one JSON-RPC 2.0 message, or undefined when it is one. */
export const jsonRpcProblem = (line: string): string | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return `not JSON: ${line.slice(0, 120)}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `not an object: ${line.slice(0, 120)}`;
  const m = value as JsonRpcMessage;
  if (m.jsonrpc !== "2.0") return `jsonrpc is not "2.0": ${line.slice(0, 120)}`;
  const validId = m.id === null || typeof m.id === "string" || (typeof m.id === "number" && Number.isFinite(m.id));
  if (typeof m.method === "string") return m.id === undefined || validId ? undefined : `bad request id: ${line.slice(0, 120)}`;
  if (!validId) return `response without a valid id: ${line.slice(0, 120)}`;
  const hasResult = Object.hasOwn(m, "result");
  const hasError = Object.hasOwn(m, "error");
  if (hasResult === hasError) return `response with neither or both result and error: ${line.slice(0, 120)}`;
  if (hasError && (typeof m.error?.code !== "number" || !Number.isInteger(m.error.code) || typeof m.error.message !== "string")) {
    return `malformed error object: ${line.slice(0, 120)}`;
  }
  return undefined;
};

/** A Node stack frame line, as printed with an uncaught exception. */
const STACK_FRAME = /^\s+at\s+.*(\(.*:\d+:\d+\)|:\d+:\d+)$/m;
export const hasStackTrace = (text: string): boolean => STACK_FRAME.test(text);

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` until it returns something truthy; throws naming `what` after `timeoutMs`. */
export const waitFor = async <T>(check: () => T | undefined | false | null, what: string, timeoutMs = 10_000, everyMs = 10): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false && value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
};

const created: string[] = [];

/** A fresh directory under the system temp dir, removed by {@link removeTempDirs}. */
export const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `mm-faults-${prefix}-`));
  created.push(dir);
  return dir;
};

/** Removes the directories this test file made (call it in `afterAll`). */
export const removeTempDirs = (): void => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
};

/** A config file turning sessions on (plus `extra` keys), for `--config`. */
export const configFile = (dir: string, extra: Record<string, unknown> = {}): string => {
  const path = join(dir, "mm-config.json");
  writeFileSync(path, JSON.stringify({ sessions: { enabled: true }, ...extra }));
  return path;
};

export type RawAgentOptions = {
  env?: Record<string, string>;
  /** A command the agent runs under, e.g. `["strace", "-f", "-o", file]`. */
  wrap?: string[];
  args?: string[];
  cwd?: string;
  /** Answers the agent's `session/request_permission` requests; `allow` by default. */
  permission?: "allow" | "allow_always" | "reject";
};

export type RawAgent = {
  child: ChildProcessWithoutNullStreams;
  pid: number;
  /** Every stdout line, in order. */
  lines: string[];
  /** Every stdout line that is not one JSON-RPC 2.0 message. */
  problems: string[];
  /** Parsed messages from the agent, in order. */
  messages: JsonRpcMessage[];
  stderr: () => string;
  /** Writes raw bytes to stdin, waiting for the pipe to drain. */
  write: (data: string | Uint8Array) => Promise<void>;
  send: (message: unknown) => Promise<void>;
  /** Sends a request and resolves with the agent's response to it (result or error). */
  request: (method: string, params?: unknown, id?: string | number) => Promise<JsonRpcMessage>;
  /** The responses (not requests) received for `id`. */
  responsesTo: (id: unknown) => JsonRpcMessage[];
  notifications: (method?: string) => JsonRpcMessage[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  hasExited: () => boolean;
};

const idKey = (id: unknown): string => JSON.stringify(id) ?? "undefined";

export const spawnRaw = (options: RawAgentOptions = {}): RawAgent => {
  const command = [...(options.wrap ?? []), process.execPath, BIN, ...(options.args ?? [])];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd ?? process.cwd(),
    env: { PATH: process.env.PATH ?? "", HOME: options.cwd ?? tmpdir(), XDG_CONFIG_HOME: options.cwd ?? tmpdir(), ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdin.on("error", () => undefined);
  const lines: string[] = [];
  const problems: string[] = [];
  const messages: JsonRpcMessage[] = [];
  const byId = new Map<string, JsonRpcMessage[]>();
  const waiters = new Map<string, (m: JsonRpcMessage) => void>();
  let exited = false;

  const write = (data: string | Uint8Array): Promise<void> =>
    new Promise((resolve, reject) => {
      if (exited || child.stdin.destroyed) return reject(new Error("the agent's stdin is closed"));
      child.stdin.write(data, (error) => (error ? reject(error) : resolve()));
    });

  const onMessage = (m: JsonRpcMessage): void => {
    messages.push(m);
    if (m.method === undefined) {
      const key = idKey(m.id);
      byId.set(key, [...(byId.get(key) ?? []), m]);
      const waiter = waiters.get(key);
      if (waiter) {
        waiters.delete(key);
        waiter(m);
      }
      return;
    }
    if (m.method === "session/request_permission" && m.id !== undefined) {
      void write(
        `${JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { outcome: { outcome: "selected", optionId: options.permission ?? "allow" } } })}\n`,
      ).catch(() => undefined);
    }
  };

  onLines(child.stdout, (line) => {
    lines.push(line);
    const problem = jsonRpcProblem(line);
    if (problem !== undefined) problems.push(problem);
    else onMessage(JSON.parse(line) as JsonRpcMessage);
  });

  let nextId = 1_000_000;
  const request = (method: string, params?: unknown, id: string | number = nextId++): Promise<JsonRpcMessage> => {
    const answered = new Promise<JsonRpcMessage>((resolve) => waiters.set(idKey(id), resolve));
    return write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params !== undefined ? { params } : {}) })}\n`).then(() => answered);
  };

  const exitedPromise = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => {
      exited = true;
      resolve({ code, signal });
    }),
  );

  return {
    child,
    pid: child.pid!,
    lines,
    problems,
    messages,
    stderr: () => stderr,
    write,
    send: (message) => write(`${JSON.stringify(message)}\n`),
    request,
    responsesTo: (id) => byId.get(idKey(id)) ?? [],
    notifications: (method) => messages.filter((m) => m.method !== undefined && (method === undefined || m.method === method)),
    exited: exitedPromise,
    hasExited: () => exited,
  };
};

/** `initialize` then `session/new` in `cwd`; the new session's id. */
export const openSession = async (agent: RawAgent, cwd: string): Promise<string> => {
  const init = await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: "faults", version: "1" } });
  if (init.error) throw new Error(`initialize failed: ${JSON.stringify(init.error)}`);
  const created = await agent.request("session/new", { cwd, mcpServers: [] });
  if (created.error) throw new Error(`session/new failed: ${JSON.stringify(created.error)}`);
  return (created.result as { sessionId: string }).sessionId;
};

export const promptText = (sessionId: string, text: string) => ({ sessionId, prompt: [{ type: "text", text }] });

// ---- processes ------------------------------------------------------------------------------------

type ProcInfo = { pid: number; ppid: number; pgrp: number; state: string; comm: string };

const procInfo = (pid: string): ProcInfo | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = text.lastIndexOf(")");
    const comm = text.slice(text.indexOf("(") + 1, close);
    const fields = text.slice(close + 2).split(" ");
    return { pid: Number(pid), state: fields[0] ?? "", ppid: Number(fields[1]), pgrp: Number(fields[2]), comm };
  } catch {
    return undefined;
  }
};

const allProcs = (): ProcInfo[] =>
  readdirSync("/proc")
    .filter((e) => /^\d+$/.test(e))
    .map(procInfo)
    .filter((p): p is ProcInfo => p !== undefined && p.state !== "Z" && p.state !== "X");

/** Live (non-zombie) descendants of `pid`. */
export const descendants = (pid: number): ProcInfo[] => {
  // The agent's reaper (packages/node/src/shell/reaper.ts) lives as long as the agent: not a leftover.
  const isReaper = (p: ProcInfo): boolean => {
    try {
      return readFileSync(`/proc/${p.pid}/cmdline`, "utf8").includes("# mm-reaper");
    } catch {
      return false;
    }
  };
  const procs = allProcs().filter((p) => !isReaper(p));
  const found: ProcInfo[] = [];
  const frontier = [pid];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const p of procs) {
      if (p.ppid === parent && !found.some((f) => f.pid === p.pid)) {
        found.push(p);
        frontier.push(p.pid);
      }
    }
  }
  return found;
};

/** Live processes whose command line contains `marker` (a unique token put in a test's commands). */
export const processesWith = (marker: string): ProcInfo[] =>
  allProcs().filter((p) => {
    if (p.pid === process.pid) return false;
    try {
      return readFileSync(`/proc/${p.pid}/cmdline`, "utf8").includes(marker);
    } catch {
      return false;
    }
  });

/** VmRSS of a process in kB. */
export const rssKb = (pid: number): number => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(match?.[1] ?? NaN);
};

/** Open file descriptors of a process. */
export const fdCount = (pid: number): number => readdirSync(`/proc/${pid}/fd`).length;

/** Every file under `dir`, recursively (contents as text). */
export const filesUnder = (dir: string): { path: string; text: string }[] => {
  const out: { path: string; text: string }[] = [];
  const walk = (d: string): void => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push({ path: p, text: readFileSync(p, "utf8") });
    }
  };
  walk(dir);
  return out;
};
