/**
 * Runs a callback once a given response has been written: the SDK writes a handler's notifications
 * before its response, but `available_commands_update` must follow the `session/new` response (an
 * editor drops updates for a session id it does not know yet).
 *
 * A transport that can say when it has written a message (`ndJsonStream`'s `onWritten`) feeds
 * `responseWatch().written` directly; any other stream is wrapped by `withAfterResponse`.
 */
import type * as acp from "@agentclientprotocol/sdk";

import type { JsonRpcId } from "./json-rpc-id.js";

export type AfterResponse = (id: JsonRpcId, callback: () => void) => void;

/** A stream with the hook saying when the response to a request has been written. */
export type Transport = { readonly stream: acp.Stream; readonly afterResponse: AfterResponse };

const isSuccessResponse = (message: acp.AnyMessage): message is acp.AnyMessage & { id: JsonRpcId } =>
  "id" in message && "result" in message && !("method" in message);

/** The callbacks waiting for responses, and what to call once each message is written. */
export const responseWatch = (): { readonly afterResponse: AfterResponse; readonly written: (message: acp.AnyMessage) => void } => {
  const waiting = new Map<JsonRpcId, () => void>();
  return {
    afterResponse: (id, callback) => void waiting.set(id, callback),
    written: (message) => {
      if (waiting.size === 0 || !isSuccessResponse(message)) return;
      const callback = waiting.get(message.id);
      if (callback === undefined) return;
      waiting.delete(message.id);
      callback();
    },
  };
};

/** Any stream as a transport: its writable wrapped to watch what it has written. */
export const withAfterResponse = (stream: acp.Stream): Transport => {
  const watch = responseWatch();
  const writer = stream.writable.getWriter();
  const writable = new WritableStream<acp.AnyMessage>({
    write: async (message) => {
      await writer.write(message);
      watch.written(message);
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  return { stream: { readable: stream.readable, writable }, afterResponse: watch.afterResponse };
};
