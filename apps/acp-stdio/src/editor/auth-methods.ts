/**
 * The auth methods `initialize` advertises. The spec surface has none. The "full" surface offers one
 * `terminal` method, `mm-acp --setup`, to clients that can run it: that is what the ACP registry's CI
 * asks for, and setting up the model server is the only sign-in mm has.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AcpSurface } from "../config/index.js";

/** The id of the setup method; a client runs it in a terminal and never sends it to `authenticate`. */
export const SETUP_METHOD_ID = "mm-setup";

/** The terminal method: the agent's own command with `--setup` appended. */
export const SETUP_METHOD: acp.AuthMethod = {
  type: "terminal",
  id: SETUP_METHOD_ID,
  name: "Set up the model server",
  description: "Choose the model server, the model and the environment variable holding its key (the key itself is never written)",
  args: ["--setup"],
};

/**
 * Whether the client can run a terminal method: the schema's `auth.terminal`, or the
 * `_meta["terminal-auth"]` flag clients used before it (the ACP registry's check still sends only that).
 */
export const canRunTerminalAuth = (capabilities: acp.ClientCapabilities | undefined): boolean =>
  capabilities?.auth?.terminal === true || capabilities?._meta?.["terminal-auth"] === true;

/** `authMethods` for `initialize`: `[]` on the spec surface or for a client that cannot run the setup. */
export const advertisedAuthMethods = (surface: AcpSurface, capabilities: acp.ClientCapabilities | undefined): acp.AuthMethod[] =>
  surface === "full" && canRunTerminalAuth(capabilities) ? [SETUP_METHOD] : [];
