/** The PermissionGate port: asks the user before a tool touches the machine. */
import type { ToolCallView } from "../turn/tool-call-view.js";

/** The user's answer: once, always for that tool in that session, or no. */
export type PermissionDecision = "allow" | "allow_always" | "reject";

/** A call to ask about: the session, the call as shown, and the turn's signal. */
export type PermissionRequest = {
  readonly sessionId: string;
  readonly call: ToolCallView;
  readonly signal: AbortSignal;
};

/**
 * Contract: resolves with the user's decision; never rejects. A transport failure, a cancelled
 * dialog or an aborted signal resolves `reject`.
 */
export type PermissionGate = {
  readonly ask: (request: PermissionRequest) => Promise<PermissionDecision>;
};
