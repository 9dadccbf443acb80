/**
 * The stdio transport of an MCP server, in its own process group: newline-delimited JSON-RPC on its
 * stdin/stdout, the tail of its stderr kept for the log. Closing it ends stdin, then sends TERM to the
 * whole group, then KILL: an `npx` wrapper's children go too (the official transport signals the direct
 * child only and leaves them running). A write the dead server's pipe refuses (EPIPE) waits for its exit
 * and its last stderr, and fails with that exit: why it stopped, not how the pipe broke.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";

const STDERR_TAIL_BYTES = 4096;
const STDIN_GRACE_MS = 300;
const TERM_GRACE_MS = 1000;
const STDERR_GRACE_MS = 200;
/** Longest wait, after a write to a broken pipe, for the server's exit. */
const EXIT_WAIT_MS = 1000;
/** The write errors of a server that is gone (or going). */
const BROKEN_PIPE = new Set(["EPIPE", "ECONNRESET", "ERR_STREAM_DESTROYED", "ERR_STREAM_WRITE_AFTER_END"]);
/** The longest line a server may write (characters): past it the server is stopped, as if it had crashed. */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

export type GroupStdioOptions = {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Told when the server's process group starts (true) and once it has been killed (false). */
  readonly onGroup?: (pgid: number, alive: boolean) => void;
};

const exited = (child: ChildProcess, ms: number): Promise<boolean> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(true)
    : new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve(true);
        });
      });

/** Signals the child's whole group; false when it is gone. */
const signalGroup = (child: ChildProcess, signal: NodeJS.Signals): boolean => {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
};

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private stderrTail = "";
  private stderrEnded: Promise<void> = Promise.resolve();
  private closing = false;
  private closed: Promise<void> | undefined;
  private exit: string | undefined;

  constructor(private readonly options: GroupStdioOptions) {}

  /** The last few KiB the server wrote on stderr. */
  stderr(): string {
    return this.stderrTail;
  }

  /** How the server ended by itself ("exited with code 1"), once it has; not set by `close`. */
  exitReason(): string | undefined {
    return this.exit;
  }

  /** The process id (and group id) of the server, once started. */
  pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    const child = spawn(this.options.command, [...this.options.args], {
      cwd: this.options.cwd,
      env: this.options.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child = child;
    // The pieces of the line under way: each chunk is searched once for its newlines (a long line is
    // not joined and scanned again on every chunk), and a line past MAX_LINE_CHARS stops the server.
    let pieces: string[] = [];
    let pending = 0;
    let overflowed = false;
    const deliver = (line: string): void => {
      const trimmed = line.trim();
      if (trimmed === "") return;
      try {
        this.onmessage?.(JSON.parse(trimmed) as JSONRPCMessage);
      } catch (error) {
        this.onerror?.(new Error(`not a JSON-RPC line: ${trimmed.slice(0, 200)}`, { cause: error }));
      }
    };
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      if (overflowed) return;
      let start = 0;
      for (let newline = chunk.indexOf("\n"); newline !== -1; newline = chunk.indexOf("\n", start)) {
        pieces.push(chunk.slice(start, newline));
        const line = pieces.join("");
        pieces = [];
        pending = 0;
        start = newline + 1;
        deliver(line);
      }
      if (start < chunk.length) {
        pieces.push(chunk.slice(start));
        pending += chunk.length - start;
        if (pending > MAX_LINE_CHARS) {
          overflowed = true;
          pieces = [];
          this.exit = `wrote a line of over ${MAX_LINE_CHARS} characters and was stopped`;
          this.onerror?.(new Error(`the server ${this.exit}`));
          signalGroup(child, "SIGKILL");
        }
      }
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
    });
    this.stderrEnded = new Promise((resolve) => {
      if (child.stderr === null) return resolve();
      child.stderr.once("close", resolve);
      child.stderr.once("end", resolve);
    });
    child.stdin?.on("error", () => undefined);
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    if (child.pid !== undefined) this.options.onGroup?.(child.pid, true);
    child.on("error", (error) => this.onerror?.(error));
    child.once("exit", (code, signal) => {
      if (!this.closing && this.exit === undefined) this.exit = signal !== null ? `was killed by ${signal}` : `exited with code ${code}`;
      signalGroup(child, "SIGKILL");
      if (child.pid !== undefined) this.options.onGroup?.(child.pid, false);
      this.onclose?.();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || stdin.destroyed) throw new Error("the MCP server is not running");
    const failed = await new Promise<Error | undefined>((resolve) => stdin.write(`${JSON.stringify(message)}\n`, (error) => resolve(error ?? undefined)));
    if (failed !== undefined) throw await this.whyWriteFailed(failed);
  }

  /** A broken pipe means the server is gone or going: its exit (and last stderr) says why, when it comes in time. */
  private async whyWriteFailed(error: Error): Promise<Error> {
    const child = this.child;
    if (child === undefined || !BROKEN_PIPE.has((error as NodeJS.ErrnoException).code ?? "")) return error;
    if (!(await exited(child, EXIT_WAIT_MS)) || this.exit === undefined) return error;
    await Promise.race([this.stderrEnded, new Promise((resolve) => setTimeout(resolve, STDERR_GRACE_MS))]);
    return new Error(`the server ${this.exit}`, { cause: error });
  }

  /** Ends stdin, then TERM to the group, then KILL; resolves once the server is gone (every caller waits for the same end). */
  close(): Promise<void> {
    if (this.child === undefined) return Promise.resolve();
    this.closed ??= this.closeOnce(this.child);
    return this.closed;
  }

  private async closeOnce(child: ChildProcess): Promise<void> {
    this.closing = true;
    child.stdin?.end();
    if (!(await exited(child, STDIN_GRACE_MS))) {
      signalGroup(child, "SIGTERM");
      if (!(await exited(child, TERM_GRACE_MS))) signalGroup(child, "SIGKILL");
    }
    signalGroup(child, "SIGKILL");
    if (child.pid !== undefined) this.options.onGroup?.(child.pid, false);
    // What the server wrote last on stderr (often why it stopped) is read before the close resolves.
    await Promise.race([this.stderrEnded, new Promise((resolve) => setTimeout(resolve, STDERR_GRACE_MS))]);
  }

  /** Kills the whole group at once (the agent is exiting). */
  killNow(): void {
    if (this.child !== undefined) signalGroup(this.child, "SIGKILL");
  }
}
