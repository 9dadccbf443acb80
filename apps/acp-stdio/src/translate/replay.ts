/**
 * A loaded session's replay items → the session updates `session/load` sends before answering.
 * A call replays with the status it ended with live (`completed`, or `failed`: rejected, cancelled,
 * refused, invalid input, non-zero exit) and its output as text (and its diffs); a call with no
 * recorded result replays `failed` with no content. A user message's images (prompts with
 * `model.vision`) follow its text as image chunks of their own.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ReplayItem } from "@mm/core";
import { agentText, planUpdate } from "./turn-event.js";
import { diffContent, imageContent, pendingToolCall, textContent } from "./tool-call.js";

/** How a replay is shown: `toolNames` (full surface), a tool call carries its tool's `name`. */
export type ReplayOptions = { readonly toolNames?: boolean };

/** The updates of one replay item: one, or a user message's text then each of its images. */
export const replayUpdates = (item: ReplayItem, options: ReplayOptions = {}): acp.SessionUpdate[] =>
  item.type === "user" && item.images !== undefined && item.images.length > 0
    ? [
        replayUpdate(item, options),
        ...item.images.map(
          (image): acp.SessionUpdate => ({ sessionUpdate: "user_message_chunk", content: { type: "image", data: image.data, mimeType: image.mimeType } }),
        ),
      ]
    : [replayUpdate(item, options)];

const replayUpdate = (item: ReplayItem, options: ReplayOptions): acp.SessionUpdate => {
  switch (item.type) {
    case "user":
      return { sessionUpdate: "user_message_chunk", content: { type: "text", text: item.text } };
    case "thought":
      return { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: item.text } };
    case "plan":
      return planUpdate(item.entries);
    case "summary":
      return agentText(`🗜️ ${item.text}`);
    case "agent":
      return agentText(item.text);
    case "tool": {
      const base = { ...pendingToolCall(item.call), ...(options.toolNames === true ? { name: item.call.name } : {}) };
      if (item.result === undefined) {
        const { content: _none, ...withoutContent } = base;
        return { ...withoutContent, status: "failed" };
      }
      return {
        ...base,
        status: item.result.status,
        rawOutput: { output: item.result.output },
        content: [textContent(item.result.output), ...(item.result.images ?? []).map(imageContent), ...item.result.diffs.map(diffContent)],
      };
    }
  }
};
