/** Core tool-call views and results → ACP `tool_call` / `tool_call_update` shapes. */
import type * as acp from "@agentclientprotocol/sdk";
import type { CommandExit, FileDiff, ImageData, ToolCallView } from "@mm/core";
import { terminalContent, terminalExitMeta, terminalInfoMeta } from "./terminal.js";

/** A core diff as ACP diff content; a deletion shows its old text against an empty new text. */
export const diffContent = (diff: FileDiff): acp.ToolCallContent =>
  diff.note !== undefined
    ? { type: "content", content: { type: "text", text: `${diff.path}: ${diff.note}` } }
    : {
        type: "diff",
        path: diff.path,
        oldText: diff.oldText,
        newText: diff.newText ?? "",
        ...(diff.newText === null ? { _meta: { deleted: true } } : {}),
      };

export const textContent = (text: string): acp.ToolCallContent => ({ type: "content", content: { type: "text", text } });

const locationsOf = (paths: readonly string[]): acp.ToolCallLocation[] => paths.map((path) => ({ path }));

/**
 * The tool call as the permission request shows it: title, kind, input, places and proposed diff
 * (or, `terminal`, the call's live terminal).
 */
export const permissionToolCall = (call: ToolCallView, terminal = false): acp.ToolCallUpdate & acp.ToolCall => ({
  toolCallId: call.id,
  title: call.title,
  kind: call.kind,
  status: "pending",
  rawInput: call.input as Record<string, unknown>,
  locations: locationsOf(call.locations),
  content: terminal ? [terminalContent(call)] : call.diffs.map(diffContent),
});

/** Where a call shown as a live terminal runs; absent, it is not shown as one. */
export type TerminalPlace = { readonly cwd?: string };

/**
 * The pending call, carrying the proposed diff of an edit so the user can judge it first; with a
 * `terminal`, the display-only terminal its output will go to.
 */
export const pendingToolCall = (call: ToolCallView, terminal?: TerminalPlace): acp.ToolCall & { sessionUpdate: "tool_call" } => ({
  sessionUpdate: "tool_call",
  ...permissionToolCall(call, terminal !== undefined),
  ...(terminal !== undefined ? { _meta: terminalInfoMeta(call, terminal.cwd) } : {}),
});

export const runningUpdate = (call: ToolCallView): acp.ToolCallUpdate & { sessionUpdate: "tool_call_update" } => ({
  sessionUpdate: "tool_call_update",
  toolCallId: call.id,
  status: "in_progress",
});

/** Content of a finished call: the diffs of file changes; for bash (or no diff) the text output too. */
export const resultContent = (call: ToolCallView, output: string, diffs: readonly FileDiff[], images: readonly ImageData[] = []): acp.ToolCallContent[] => {
  const shown = diffs.map(diffContent);
  if (shown.length > 0 && call.kind === "edit") return shown;
  return [textContent(output), ...images.map(imageContent), ...shown];
};

/** An image a tool returned, as tool call content. */
export const imageContent = (image: ImageData): acp.ToolCallContent => ({
  type: "content",
  content: { type: "image", data: image.data, mimeType: image.mimeType },
});

/**
 * The finished call: status, content, `rawOutput.output`, places. With `terminal` (the call was shown
 * as one), a command that ran keeps its terminal as content (it holds the output) and the update says
 * how it ended; a call that never ran shows its text, as any other.
 */
export const doneUpdate = (
  call: ToolCallView,
  status: "completed" | "failed",
  output: string,
  diffs: readonly FileDiff[],
  images: readonly ImageData[] = [],
  terminal?: { readonly exit: CommandExit | undefined },
): acp.ToolCallUpdate & { sessionUpdate: "tool_call_update" } => ({
  sessionUpdate: "tool_call_update",
  toolCallId: call.id,
  status,
  content: terminal?.exit !== undefined ? [terminalContent(call), ...diffs.map(diffContent)] : resultContent(call, output, diffs, images),
  rawOutput: { output },
  locations: locationsOf(call.locations),
  ...(terminal !== undefined ? { _meta: terminalExitMeta(call, terminal.exit) } : {}),
});
