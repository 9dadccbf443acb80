/**
 * The PermissionGate over ACP: `session/request_permission` with allow / allow_always / reject.
 * A transport error, a `cancelled` outcome, an option not offered or an aborted turn is a rejection.
 * The options' names say what each covers: on the spec surface "Always allow" is for the tool, every
 * call of it, for the rest of the session (docs/acp-surface.md's effect, unchanged); the full surface's
 * rules gate (permissions/rules-gate.ts) offers a rule instead.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { PermissionDecision, PermissionGate, PermissionRequest, ToolCallView } from "@mm/core";
import type { Peer } from "../state/app-state.js";
import { showsTerminal } from "../translate/terminal.js";
import { permissionToolCall } from "../translate/tool-call.js";

/** What one tool's "always allow" covers on the spec surface, in the option's name. */
const EVERY: Readonly<Record<string, string>> = {
  bash: "every command",
  read_file: "every file read",
  write_file: "every file write",
  edit_file: "every file edit",
};

/** The spec surface's three options; the second's name says it is the whole tool, for this session. */
export const specOptions = (call: Pick<ToolCallView, "name">): acp.PermissionOption[] => [
  { optionId: "allow", name: "Allow", kind: "allow_once" },
  { optionId: "allow_always", name: `Always allow ${call.name} — ${EVERY[call.name] ?? "every call"}, this session`, kind: "allow_always" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
];

/** The decision of an answer; anything malformed (`{}`, `null`, an option not offered) is a rejection. */
const decisionOf =
  (offered: readonly acp.PermissionOption[]) =>
  (response: acp.RequestPermissionResponse | null | undefined): PermissionDecision => {
    const outcome = (response as { outcome?: { outcome?: unknown; optionId?: unknown } } | null | undefined)?.outcome;
    if (typeof outcome !== "object" || outcome === null || outcome.outcome !== "selected") return "reject";
    const id = outcome.optionId;
    if (!offered.some((option) => option.optionId === id)) return "reject";
    return id === "allow" || id === "allow_always" ? id : "reject";
  };

/** The options of one request: the spec's by default. */
export type OptionsFor = (request: PermissionRequest) => acp.PermissionOption[];

/** `shown` is how the call is presented (e.g. its title marked sandboxed); the call itself by default. */
export const acpPermissionGate = (
  peer: Peer,
  shown: (call: ToolCallView) => ToolCallView = (call) => call,
  optionsFor: OptionsFor = ({ call }) => specOptions(call),
): PermissionGate => ({
  ask: async (request) => {
    const { sessionId, call, signal } = request;
    const client = peer.client;
    if (client === undefined || signal.aborted) return "reject";
    let onAbort = (): void => undefined;
    const aborted = new Promise<PermissionDecision>((resolve) => {
      onAbort = () => resolve("reject");
      signal.addEventListener("abort", onAbort, { once: true });
    });
    const options = optionsFor(request);
    const asked = client
      .request("session/request_permission", {
        sessionId,
        toolCall: permissionToolCall(shown(call), showsTerminal(call, peer.capabilities)),
        options,
      })
      .then(decisionOf(options), (): PermissionDecision => "reject");
    try {
      return await Promise.race([asked, aborted]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  },
});
