/** The JSON-RPC errors of the spec, shaped as the Go SDK the reference was built on shaped them. */
import * as acp from "@agentclientprotocol/sdk";
import { describeStoreError, type StoreError } from "@mm/core";

/** `invalid params` for a session: -32602, `data` carrying the `sessionId` and the error. */
export const invalidSessionParams = (sessionId: unknown, error: string): acp.RequestError => acp.RequestError.invalidParams({ sessionId, error });

/**
 * `internal error`: -32603, `data: { error: "<one-line explanation>" }`, the explanation in the message
 * too (`Internal error: …`, the SDK's own form), since many clients show the message alone.
 */
export const internalError = (error: string): acp.RequestError => {
  const line = error.split("\n")[0] ?? "";
  return acp.RequestError.internalError({ error: line }, line);
};

/** What the editor is told when the agent's sessions fail: off, or the store's own reason. */
export const storeErrorText = (error: StoreError | { readonly kind: "disabled" }): string =>
  error.kind === "disabled" ? "sessions are not enabled" : describeStoreError(error);
