/**
 * A turn's events as they go to the editor, every kind in one place: a command's output goes through the
 * prompt's live output (throttled, shaped per client: live-output/live-output.ts), which a finished call
 * closes; every event becomes its session updates by `updatesOf` (turn-event.ts), sent in order.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { TurnEvent } from "@mm/core";
import type { LiveOutput } from "../live-output/live-output.js";
import { type UpdateOptions, updatesOf } from "./turn-event.js";

/** The `emit` a turn is given: sends each event's updates with `send`. */
export const turnEventSender =
  (options: UpdateOptions, live: Pick<LiveOutput, "output" | "done">, send: (update: acp.SessionUpdate) => void) =>
  (event: TurnEvent): void => {
    if (event.type === "tool-output") {
      live.output(event.call, event.text);
      return;
    }
    if (event.type === "tool-done") live.done(event.call);
    for (const update of updatesOf(event, options)) send(update);
  };
