/**
 * The stream the ACP SDK is given when the start-up front (front.ts) has already read the editor's
 * first message, before the agent's bundle was loaded:
 *
 * - `answered`: the front answered `initialize`. The SDK still has to see it: it refuses every other
 *   request until an `initialize` succeeded, and the handler records the client's capabilities. So the
 *   same request comes first again, under an id no editor uses; its answer (the one the front already
 *   wrote) stays off the output, and the editor's next messages are read only once it is written, so
 *   none of them reaches the SDK before it counts as initialized;
 * - `unread`: the message was read and not handled (another method, params the front does not take):
 *   it comes first, as the editor sent it;
 * - `none`: nothing was read.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { lightReadable, lightWritable } from "./light-streams.js";

export type FrontRead =
  | { readonly kind: "answered"; readonly params: acp.InitializeRequest }
  | { readonly kind: "unread"; readonly message: acp.AnyMessage }
  | { readonly kind: "none" };

/** The id the replayed `initialize` goes under: a string no editor sends (ids are theirs to choose, but this one names us). */
export const REPLAYED_INITIALIZE_ID = "mm-front-initialize";

const isReplayAnswer = (message: acp.AnyMessage): boolean =>
  !("method" in message) && (message as { id?: unknown }).id === REPLAYED_INITIALIZE_ID;

/**
 * `inner` with what the front read put back (see the module comment). `warn` hears of a replayed
 * `initialize` the SDK refused (it cannot be: the front answers only params the SDK takes).
 */
export const afterFront = (inner: acp.Stream, read: FrontRead, warn: (line: string) => void): acp.Stream => {
  if (read.kind === "none") return inner;
  const reader = inner.readable.getReader();
  const writer = inner.writable.getWriter();
  let first: acp.AnyMessage | undefined =
    read.kind === "unread" ? read.message : ({ jsonrpc: "2.0", id: REPLAYED_INITIALIZE_ID, method: "initialize", params: read.params } as acp.AnyMessage);
  let replayAnswered: Promise<void> | undefined;
  let answer: (() => void) | undefined;
  if (read.kind === "answered") replayAnswered = new Promise<void>((resolve) => (answer = resolve));

  const next = async (): Promise<acp.AnyMessage | undefined> => {
    if (first !== undefined) {
      const message = first;
      first = undefined;
      return message;
    }
    if (replayAnswered !== undefined) await replayAnswered;
    const { done, value } = await reader.read();
    return done ? undefined : value;
  };

  const write = (message: acp.AnyMessage): Promise<void> => {
    if (answer === undefined || !isReplayAnswer(message)) return writer.write(message);
    if ("error" in message) warn(`[acp] the agent refused the initialize the start-up front answered: ${JSON.stringify(message.error)}`);
    answer();
    answer = undefined;
    replayAnswered = undefined;
    return Promise.resolve();
  };

  return { readable: lightReadable(next, (reason) => reader.cancel(reason)), writable: lightWritable(write) };
};
