/** The PermissionGate port: asks the user before a tool touches the machine. */
import type { PermissionMode } from "../vocabulary/permission-mode.js";
import type { ToolCallView } from "../vocabulary/tool-call-view.js";

/** The user's answer: once, always for that tool in that session, or no. */
export type PermissionDecision = "allow" | "allow_always" | "reject";

/**
 * What a gate's rules say before the mode decides: never run (`deny`, the model told so), ask whatever
 * the mode, run unasked, or let the mode decide (`default`).
 */
export type Screening = "deny" | "ask" | "run" | "default";

/** A call to screen: the session, the call as shown, where it runs and the session's mode. */
export type ScreenRequest = {
  readonly sessionId: string;
  readonly call: ToolCallView;
  readonly cwd: string;
  /** The session's additional directories: inside the project for the rules, as the cwd. */
  readonly roots?: readonly string[] | undefined;
  readonly home?: string | undefined;
  readonly mode: PermissionMode;
};

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
  /**
   * Optional rules consulted for every gated call before the mode (and the session's grants): see
   * `Screening`. Contract: never rejects; absent, the mode decides alone.
   */
  readonly screen?: (request: ScreenRequest) => Promise<Screening>;
};
