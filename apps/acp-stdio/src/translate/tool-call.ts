/** Core tool-call views and results → ACP `tool_call` / `tool_call_update` shapes. */
import type * as acp from "@agentclientprotocol/sdk";
import type { FileDiff, ImageData, ToolCallView } from "@mm/core";

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

/** The tool call as the permission request shows it: title, kind, input, places and proposed diff. */
export const permissionToolCall = (call: ToolCallView): acp.ToolCallUpdate & acp.ToolCall => ({
  toolCallId: call.id,
  title: call.title,
  kind: call.kind,
  status: "pending",
  rawInput: call.input as Record<string, unknown>,
  locations: locationsOf(call.locations),
  content: call.diffs.map(diffContent),
});

/** The pending call, carrying the proposed diff of an edit so the user can judge it first. */
export const pendingToolCall = (call: ToolCallView): acp.ToolCall & { sessionUpdate: "tool_call" } => ({
  sessionUpdate: "tool_call",
  ...permissionToolCall(call),
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
export const imageContent = (image: ImageData): acp.ToolCallContent => ({ type: "content", content: { type: "image", data: image.data, mimeType: image.mimeType } });

export const doneUpdate = (
  call: ToolCallView,
  status: "completed" | "failed",
  output: string,
  diffs: readonly FileDiff[],
  images: readonly ImageData[] = [],
): acp.ToolCallUpdate & { sessionUpdate: "tool_call_update" } => ({
  sessionUpdate: "tool_call_update",
  toolCallId: call.id,
  status,
  content: resultContent(call, output, diffs, images),
  rawOutput: { output },
  locations: locationsOf(call.locations),
});
