/**
 * A turn's events as they go to the editor, every kind in one place: a command's output goes through the
 * prompt's live output (throttled, shaped per client: live-output/live-output.ts), which a finished call
 * closes; every event becomes its session updates by `updatesOf` (turn-event.ts), sent in order.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ToolCallView, TurnEvent } from "@mm/core";
import { type UpdateOptions, updatesOf } from "./turn-event.js";

/** Where a command's output goes (the prompt's `LiveOutput`): more of it, and the end of a call. */
export type CallOutput = { readonly output: (call: ToolCallView, text: string) => void; readonly done: (call: ToolCallView) => void };

/** The `emit` a turn is given: sends each event's updates with `send`. */
export const turnEventSender =
  (options: UpdateOptions, live: CallOutput, send: (update: acp.SessionUpdate) => void) =>
  (event: TurnEvent): void => {
    if (event.type === "tool-output") {
      live.output(event.call, event.text);
      return;
    }
    if (event.type === "tool-done") live.done(event.call);
    for (const update of updatesOf(event, options)) send(update);
  };
