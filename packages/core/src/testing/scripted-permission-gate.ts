/** A PermissionGate for tests: answers from a script and records every request. */
import type { PermissionDecision, PermissionGate, PermissionRequest } from "../ports/permission-gate.js";

export type ScriptedGate = PermissionGate & { readonly requests: PermissionRequest[] };

export const scriptedGate = (
  answer: PermissionDecision | ((request: PermissionRequest) => PermissionDecision | Promise<PermissionDecision>) = "allow",
): ScriptedGate => {
  const requests: PermissionRequest[] = [];
  return {
    requests,
    ask: async (request) => {
      requests.push(request);
      return typeof answer === "function" ? answer(request) : answer;
    },
  };
};
