/**
 * Under `tools.sandbox: "workspace"` the editor is told a command runs sandboxed: the bash call's
 * title, in the pending tool call and in the permission request, ends with ` (sandboxed)`.
 */
import type { ToolCallView } from "@mm/core";

export const SANDBOXED_SUFFIX = " (sandboxed)";

/** `call` as the editor sees it when commands run sandboxed; other tools are unchanged. */
export const withSandboxTitle = (call: ToolCallView): ToolCallView => (call.name === "bash" ? { ...call, title: `${call.title}${SANDBOXED_SUFFIX}` } : call);
