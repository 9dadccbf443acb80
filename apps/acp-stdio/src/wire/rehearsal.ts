/**
 * Rehearsals: a request run through the ACP SDK as if the editor had sent it, its answer kept off the
 * output. The SDK validates each request's params with zod schemas it builds (and compiles a fast
 * path for) on first use: about 20 ms for the first `session/prompt`, paid by the user's first prompt
 * unless a rehearsal paid it in idle time. A rehearsal names a session that does not exist, so the
 * handler refuses it before doing anything; its id is never one an editor uses (a per-process random
 * string), and every message answering it or naming its session is dropped before the output.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { lightReadable, lightWritable } from "./light-streams.js";

/** The SDK's stream with rehearsals mixed in, and the way to start one. */
export type Rehearsals = {
  /** What the SDK is given instead of the stream it wraps. */
  readonly stream: acp.Stream;
  /**
   * Runs `method` through the SDK with the params made for the (nonexistent) rehearsal session;
   * resolves with its answer, which stays off the output.
   */
  readonly rehearse: (method: string, paramsFor: (sessionId: string) => Record<string, unknown>) => Promise<acp.AnyMessage>;
};

type Read = { readonly done: boolean; readonly value?: acp.AnyMessage | undefined };

const idOf = (message: acp.AnyMessage): unknown => (message as { id?: unknown }).id;
const sessionOf = (message: acp.AnyMessage): unknown => ((message as { params?: { sessionId?: unknown } }).params ?? {}).sessionId;
const isResponse = (message: acp.AnyMessage): boolean => !("method" in message);

/**
 * Wraps `inner` (see the module comment); `randomTag` makes the ids (a random hex string, on first
 * use); `onEditorMessage` sees each message the editor sent, as it is handed to the SDK.
 */
export const withRehearsals = (inner: acp.Stream, randomTag: () => string, onEditorMessage: (message: acp.AnyMessage) => void = () => undefined): Rehearsals => {
  let tag: string | undefined;
  let sessionId: string | undefined;
  const reader = inner.readable.getReader();
  const writer = inner.writable.getWriter();
  const queued: acp.AnyMessage[] = [];
  const answered = new Map<string, (answer: acp.AnyMessage) => void>();
  let count = 0;
  let pending: Promise<Read> | undefined;
  let wake: (() => void) | undefined;

  /** The next message: a rehearsal when one is queued, else the editor's (a read in flight is kept). */
  const next = async (): Promise<acp.AnyMessage | undefined> => {
    for (;;) {
      const rehearsal = queued.shift();
      if (rehearsal !== undefined) return rehearsal;
      pending ??= reader.read() as Promise<Read>;
      const woken = new Promise<undefined>((resolve) => (wake = () => resolve(undefined)));
      const read = await Promise.race([pending, woken]);
      wake = undefined;
      if (read === undefined) continue;
      pending = undefined;
      if (read.done || read.value === undefined) return undefined;
      onEditorMessage(read.value);
      return read.value;
    }
  };

  const write = (message: acp.AnyMessage): Promise<void> => {
    const id = idOf(message);
    if (typeof id === "string" && isResponse(message)) {
      const done = answered.get(id);
      if (done !== undefined) {
        answered.delete(id);
        done(message);
        return Promise.resolve();
      }
    }
    if (sessionId !== undefined && sessionOf(message) === sessionId) return Promise.resolve();
    return writer.write(message);
  };

  const rehearse = (method: string, paramsFor: (sessionId: string) => Record<string, unknown>): Promise<acp.AnyMessage> =>
    new Promise((resolve) => {
      tag ??= randomTag();
      sessionId ??= `mm-rehearsal-${tag}`;
      const id = `mm-rehearsal-${tag}-${++count}`;
      answered.set(id, resolve);
      queued.push({ jsonrpc: "2.0", id, method, params: paramsFor(sessionId) } as acp.AnyMessage);
      wake?.();
    });

  return { stream: { readable: lightReadable(next, (reason) => reader.cancel(reason)), writable: lightWritable(write) }, rehearse };
};

/** The first `session/prompt` an editor sends, in the content blocks editors send, for a rehearsal. */
export const rehearsalPrompt = (sessionId: string): Record<string, unknown> => ({
  sessionId,
  prompt: [
    { type: "text", text: "rehearsal" },
    { type: "resource_link", uri: "file:///rehearsal.txt", name: "rehearsal.txt" },
    { type: "resource", resource: { uri: "file:///rehearsal.txt", text: "rehearsal", mimeType: "text/plain" } },
    { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
  ],
});
