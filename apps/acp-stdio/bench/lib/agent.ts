/**
 * A process spoken to over ACP: spawns a command with piped stdio and connects the SDK's own client
 * to it (the same client an editor embedding the TypeScript SDK would use). Permission requests are
 * answered at once; each `session/update` goes to a hook, timestamped on arrival.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { now } from "./stats.js";

export type Command = { readonly file: string; readonly args: readonly string[] };

export type LaunchOptions = {
  readonly command: Command;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** Called for every `session/update` with the time it reached the client. */
  readonly onUpdate?: (update: acp.SessionNotification, at: number) => void;
  /** The option chosen for every permission request (`allow` by default). */
  readonly permission?: "allow" | "allow_always" | "reject";
};

export type Launched = {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  /** When `spawn` was called (performance.now()). */
  readonly spawnedAt: number;
  readonly request: <M extends string>(method: M, params: unknown) => Promise<unknown>;
  readonly stderr: () => string;
  readonly permissions: () => number;
  /** Ends the connection, closes stdin and waits for the process to exit (killing it after 5 s). */
  readonly close: () => Promise<void>;
};

const STDERR_KEEP = 64 * 1024;

export const launch = (options: LaunchOptions): Launched => {
  const spawnedAt = now();
  const child = spawn(options.command.file, [...options.command.args], {
    cwd: options.cwd,
    env: { ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`cannot spawn ${options.command.file}`);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
    if (stderr.length > 2 * STDERR_KEEP) stderr = stderr.slice(-STDERR_KEEP);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  let permissions = 0;
  const choice = options.permission ?? "allow";
  const onUpdate = options.onUpdate;
  const app = acp
    .client({ name: "mm-bench" })
    .onNotification("session/update", ({ params }) => {
      if (onUpdate) onUpdate(params, now());
    })
    .onRequest("session/request_permission", () => {
      permissions++;
      return { outcome: { outcome: "selected", optionId: choice } };
    });
  let context: (ctx: acp.ClientContext) => void = () => undefined;
  const contextReady = new Promise<acp.ClientContext>((resolve) => (context = resolve));
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const connection = app
    .connectWith(stream, async (ctx) => {
      context(ctx);
      await released;
    })
    .catch(() => undefined);
  const failed = exited.then(() => {
    throw new Error(`agent exited early; stderr:\n${stderr.slice(-4000)}`);
  });
  failed.catch(() => undefined);
  const request = async (method: string, params: unknown): Promise<unknown> => {
    const ctx = await Promise.race([contextReady, failed]);
    const call = (ctx as unknown as { request: (m: string, p: unknown) => Promise<unknown> }).request(method, params);
    return Promise.race([call, failed]);
  };
  const close = async (): Promise<void> => {
    release();
    await connection;
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  return {
    child,
    pid: child.pid,
    spawnedAt,
    request,
    stderr: () => stderr,
    permissions: () => permissions,
    close,
  };
};

export const INITIALIZE = {
  protocolVersion: 1,
  clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  clientInfo: { name: "mm-bench", version: "1" },
};

/**
 * A bare Node process that answers the same JSON-RPC lines with canned results: the floor any
 * Node-based agent stands on (process start, stdin, one JSON.parse, one write).
 */
export const FLOOR_SCRIPT = [
  'let b="";',
  'process.stdin.setEncoding("utf8").on("data",(d)=>{b+=d;let i;',
  'while((i=b.indexOf("\\n"))>=0){const m=JSON.parse(b.slice(0,i));b=b.slice(i+1);if(m.id===undefined)continue;',
  'const r=m.method==="initialize"?{protocolVersion:1,agentCapabilities:{},authMethods:[]}:m.method==="session/new"?{sessionId:"floor"}:{};',
  'process.stdout.write(JSON.stringify({jsonrpc:"2.0",id:m.id,result:r})+"\\n");}});',
].join("");
