/**
 * The PermissionGate over ACP: `session/request_permission` with allow / allow_always / reject.
 * A transport error, a `cancelled` outcome, an unknown option or an aborted turn is a rejection.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionDecision, PermissionGate, ToolCallView } from "@mm/core";
import type { Peer } from "./app-state.js";
import { showsTerminal } from "./translate/terminal.js";
import { permissionToolCall } from "./translate/tool-call.js";

export const PERMISSION_OPTIONS: acp.PermissionOption[] = [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
];

/** The decision of an answer; anything malformed (`{}`, `null`, an unknown option) is a rejection. */
const decisionOf = (response: acp.RequestPermissionResponse | null | undefined): PermissionDecision => {
  const outcome = (response as { outcome?: { outcome?: unknown; optionId?: unknown } } | null | undefined)?.outcome;
  if (typeof outcome !== "object" || outcome === null || outcome.outcome !== "selected") return "reject";
  const id = outcome.optionId;
  return id === "allow" || id === "allow_always" ? id : "reject";
};

/** `shown` is how the call is presented (e.g. its title marked sandboxed); the call itself by default. */
export const acpPermissionGate = (peer: Peer, shown: (call: ToolCallView) => ToolCallView = (call) => call): PermissionGate => ({
  ask: async ({ sessionId, call, signal }) => {
    const client = peer.client;
    if (client === undefined || signal.aborted) return "reject";
    let onAbort = (): void => undefined;
    const aborted = new Promise<PermissionDecision>((resolve) => {
      onAbort = () => resolve("reject");
      signal.addEventListener("abort", onAbort, { once: true });
    });
    const asked = client
      .request("session/request_permission", {
        sessionId,
        toolCall: permissionToolCall(shown(call), showsTerminal(call, peer.capabilities)),
        options: PERMISSION_OPTIONS,
      })
      .then(decisionOf, (): PermissionDecision => "reject");
    try {
      return await Promise.race([asked, aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  },
});
