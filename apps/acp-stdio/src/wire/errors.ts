/** The JSON-RPC errors of the spec, shaped as the Go SDK the reference was built on shaped them. */
import * as acp from "@agentclientprotocol/sdk";

/** `invalid params` for a session: -32602, `data` carrying the `sessionId` and the error. */
export const invalidSessionParams = (sessionId: unknown, error: string): acp.RequestError =>
  acp.RequestError.invalidParams({ sessionId, error });

/** `internal error`: -32603, `data: { error: "<one-line explanation>" }`. */
export const internalError = (error: string): acp.RequestError =>
  new acp.RequestError(-32603, "Internal error", { error: error.split("\n")[0] });
