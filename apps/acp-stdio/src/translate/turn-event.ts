/** A core TurnEvent → the ACP session updates it becomes (none, one, or several). */
import type * as acp from "@agentclientprotocol/sdk";
import type { PlanEntry, ToolCallView, TurnEvent } from "@mm/core";
import { noticeOf } from "./notice.js";
import { withSandboxTitle } from "./sandbox-title.js";
import { doneUpdate, pendingToolCall, runningUpdate, type TerminalPlace } from "./tool-call.js";
import { usageUpdate } from "./usage.js";

export type UpdateOptions = {
  /** The client advertised `session.compaction`: compactions are also sent as compaction updates. */
  readonly compactionUpdates: boolean;
  readonly compactionId: () => string;
  /** Commands run sandboxed (`tools.sandbox: "workspace"`): bash titles say so. */
  readonly sandboxed?: boolean;
  /** The "full" surface: a session's title is sent as `session_info_update`, its cost in `usage_update`. */
  readonly sessionInfo?: boolean;
  /** The "full" surface: a `tool_call` carries its tool's `name` (the stable schema's field). */
  readonly toolNames?: boolean;
  /** The client wants live output as a terminal (`_meta.terminal_output`): where the session runs. */
  readonly terminal?: TerminalPlace;
  /** The "full" surface to a client showing notices: mm's lines that are no answer go as `notice` updates. */
  readonly notices?: boolean;
};

/** The terminal place of a call shown as a live terminal, else undefined. */
const terminalOf = (call: ToolCallView, options: UpdateOptions): TerminalPlace | undefined => (call.streamsOutput === true ? options.terminal : undefined);

/** The task list as ACP's `plan` update (the whole list). */
export const planUpdate = (entries: readonly PlanEntry[]): acp.SessionUpdate => ({ sessionUpdate: "plan", entries: entries.map((e) => ({ ...e })) });

export const agentText = (text: string): acp.SessionUpdate => ({
  sessionUpdate: "agent_message_chunk",
  content: { type: "text", text },
});

export const updatesOf = (event: TurnEvent, options: UpdateOptions): readonly acp.SessionUpdate[] => {
  switch (event.type) {
    case "text":
      return [agentText(event.text)];
    case "notice":
      return options.notices === true && event.severity !== undefined ? [noticeOf(event.text, event.severity)] : [agentText(event.text)];
    case "thought":
      return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.text } }];
    case "plan":
      return [planUpdate(event.entries)];
    case "tool-pending": {
      const pending = pendingToolCall(options.sandboxed === true ? withSandboxTitle(event.call) : event.call, terminalOf(event.call, options));
      return [options.toolNames === true ? { ...pending, name: event.call.name } : pending];
    }
    case "tool-running":
      return [runningUpdate(event.call)];
    case "tool-output":
      // Throttled and shaped per client by the prompt's live output (live-output/live-output.ts).
      return [];
    case "tool-done": {
      const terminal = terminalOf(event.call, options) !== undefined ? { exit: event.exit } : undefined;
      return [doneUpdate(event.call, event.status, event.output, event.diffs, event.images, terminal)];
    }
    case "title":
      return options.sessionInfo === true ? [{ sessionUpdate: "session_info_update", title: event.title, updatedAt: new Date().toISOString() }] : [];
    case "usage":
      return [usageUpdate(event.used, event.size, event.cost, options.sessionInfo === true)];
    case "compaction": {
      const chunk = agentText(event.line);
      if (!options.compactionUpdates || event.outcome === "nothing") return [chunk];
      const compactionId = options.compactionId();
      if (event.outcome === "failed" || event.summary === undefined) {
        return [chunk, { sessionUpdate: "compaction_update", compactionId, status: "failed", error: event.line }];
      }
      return [
        chunk,
        { sessionUpdate: "compaction_update", compactionId, status: "completed" },
        { sessionUpdate: "compaction_summary_chunk", compactionId, content: { type: "text", text: event.summary } },
      ];
    }
  }
};
