/** What the permission mode alone says about a call (when the rules leave it to the mode). */
import type { Tool } from "../tools/tool.js";
import type { PermissionMode } from "../vocabulary/permission-mode.js";

/** Whether a call of `tool` waits for the user under `mode` (given no "always allow" for it). */
export const modeAsks = (mode: PermissionMode, tool: Tool): boolean => {
  if (!tool.gated) return false;
  if (mode === "all") return false;
  if (mode === "edits") return tool.counts !== "file";
  return true;
};
