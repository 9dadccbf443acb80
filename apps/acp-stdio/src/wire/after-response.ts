/**
 * A stream wrapper that runs a callback once a given response has been written: the SDK writes a
 * handler's notifications before its response, but `available_commands_update` must follow the
 * `session/new` response (an editor drops updates for a session id it does not know yet).
 */
import type * as acp from "@agentclientprotocol/sdk";

type JsonRpcId = string | number | null;

export type AfterResponse = (id: JsonRpcId, callback: () => void) => void;

const isSuccessResponse = (message: acp.AnyMessage): message is acp.AnyMessage & { id: JsonRpcId } =>
  "id" in message && "result" in message && !("method" in message);

export const withAfterResponse = (stream: acp.Stream): { stream: acp.Stream; afterResponse: AfterResponse } => {
  const waiting = new Map<JsonRpcId, () => void>();
  const writer = stream.writable.getWriter();
  const writable = new WritableStream<acp.AnyMessage>({
    write: async (message) => {
      await writer.write(message);
      if (waiting.size === 0 || !isSuccessResponse(message)) return;
      const callback = waiting.get(message.id);
      if (callback === undefined) return;
      waiting.delete(message.id);
      callback();
    },
    close: () => writer.close(),
    abort: (reason) => writer.abort(reason),
  });
  return {
    stream: { readable: stream.readable, writable },
    afterResponse: (id, callback) => void waiting.set(id, callback),
  };
};
