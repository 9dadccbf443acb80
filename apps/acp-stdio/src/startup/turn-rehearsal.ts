/**
 * A whole turn rehearsed in idle time, off the wire: a second agent, built by the same `serve` from
 * the same configuration and the agent's own ports, but with a model answering a canned text through
 * the real model's request path, HTTP client and stream reader (over a private local socket:
 * @mm/ai-model's `cannedChat`), no session store and no model list, is sent `initialize`, `session/new`
 * (in a folder that does not exist) and one `session/prompt` through its own ACP stream (the same line
 * reader and writer as stdio's); its answers are read and dropped. The turn calls no tool: nothing
 * reaches stdout, the network or the model server, no session file is written (on Linux nothing at
 * all: elsewhere the private socket is a file in a fresh 0700 directory, removed after the step); the
 * agent is garbage once its turn ended. The same ports, not in-memory ones, so that the code the turn
 * makes hot sees the types a real turn brings (in-memory ports made every later turn ~5 ms slower).
 * A rehearsal is cancelled as soon as `signal` aborts (the editor's first prompt): it would only
 * compete with the real turn.
 *
 * Why: the first prompt of a process ran the engine's turn, the translation of its events and the
 * writing of every notification for the first time: V8 compiled and optimised them then, on the
 * user's clock. Run after the model's warm-up, once the first session exists (startup/warm-model.ts).
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { MmConfig } from "@mm/node";
import { serve, type AppPorts } from "../serve.js";
import { ndJsonStream } from "../wire/nd-json-stream.js";
import type { ByteSource } from "../wire/light-streams.js";

/** As many deltas as a short answer has: the per-chunk path is run a few times. */
export const REHEARSAL_CHUNKS = Array.from({ length: 24 }, (_, i) => `word${i} `);
/** A rehearsal that has not ended by then is dropped (it never should: everything is local). */
const TIMEOUT_MS = 5_000;
/** The rehearsal session's folder: one that does not exist, so that nothing of a project is read. */
const CWD = "/nonexistent/mm-rehearsal";

type Line = { readonly id?: unknown; readonly result?: { readonly sessionId?: unknown } };

/** An ACP stream over lines sent from here, whose written lines go to `onLine`. */
const rehearsalStream = (onLine: (line: string) => void) => {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const queued: Uint8Array[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const source: ByteSource = {
    read: async () => {
      while (queued.length === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
      const value = queued.shift();
      return value === undefined ? { done: true } : { done: false, value };
    },
    cancel: async () => {
      ended = true;
      wake?.();
    },
  };
  const take = (text: string): Promise<void> => {
    for (const line of text.split("\n")) if (line !== "") onLine(line);
    return Promise.resolve();
  };
  const stream = ndJsonStream({ write: (bytes) => take(decoder.decode(bytes)), writeText: take }, source);
  const send = (message: Record<string, unknown>): void => {
    queued.push(encoder.encode(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`));
    wake?.();
  };
  const end = (): void => {
    ended = true;
    wake?.();
  };
  return { stream, send, end };
};

export type RehearsalOptions = {
  /** Cancels the rehearsal (its turn, if it runs) and resolves it at once. */
  readonly signal?: AbortSignal;
  /** Sees each line the rehearsal agent writes (for tests). */
  readonly onLine?: (line: string) => void;
};

/**
 * Runs the rehearsal (see the module comment) on `ports` (their store and model list left out);
 * resolves once its turn ended or it was cancelled, never rejects.
 */
export const rehearseTurn = (config: MmConfig, ports: AppPorts, options: RehearsalOptions = {}): Promise<void> =>
  new Promise<void>((resolve) => {
    const { signal, onLine = () => undefined } = options;
    if (signal?.aborted === true) return resolve();
    let finished = false;
    let sessionId: string | undefined;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", cancel);
      wire.end();
      resolve();
    };
    /** Stops the turn if it runs (the hidden agent cancels its model step), then ends. */
    const cancel = (): void => {
      if (!finished && sessionId !== undefined) wire.send({ method: "session/cancel", params: { sessionId } });
      finish();
    };
    const wire = rehearsalStream((line) => {
      onLine(line);
      let message: Line;
      try {
        message = JSON.parse(line) as Line;
      } catch {
        return finish();
      }
      if (message.id === 2 && typeof message.result?.sessionId === "string") {
        sessionId = message.result.sessionId;
        wire.send({ id: 3, method: "session/prompt", params: { sessionId, prompt: [{ type: "text", text: "rehearsal" }] } });
      } else if (message.id === 3 || (message.id !== undefined && message.result === undefined)) finish();
    });
    const timer = setTimeout(cancel, TIMEOUT_MS);
    timer.unref();
    signal?.addEventListener("abort", cancel, { once: true });
    const { listModels: _listModels, ...own } = ports;
    try {
      serve(
        { ...config, sessions: { ...config.sessions, enabled: false } },
        { ...own, store: undefined },
        wire.stream as acp.Stream,
        { os: "rehearsal", cwd: CWD, log: () => undefined, warn: () => undefined },
      );
    } catch {
      return finish();
    }
    wire.send({ id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } } });
    wire.send({ id: 2, method: "session/new", params: { cwd: CWD, mcpServers: [] } });
  });
