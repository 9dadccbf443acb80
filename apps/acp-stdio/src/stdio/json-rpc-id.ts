/** A JSON-RPC 2.0 request id, as it may appear on the wire. */
export type JsonRpcId = string | number | null;
