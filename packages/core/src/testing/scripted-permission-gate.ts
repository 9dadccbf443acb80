/** A PermissionGate for tests: answers from a script and records every request. */
import type { PermissionDecision, PermissionGate, PermissionRequest } from "../ports/permission-gate.js";

/** A PermissionGate recording every request. */
export type ScriptedGate = PermissionGate & { readonly requests: PermissionRequest[] };

/** A gate answering `answer` (or what the function returns). */
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
