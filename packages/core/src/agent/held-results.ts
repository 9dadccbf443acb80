/**
 * A tool call is shown finished only once its result is on disk: the turn's `tool-done` events wait
 * for the save that follows them (the engine saves after each call), so a crash never loses a result
 * the editor has shown as completed.
 */
import type { Emit, TurnEvent } from "../turn/events.js";

/** The turn's emit, holding `tool-done` events until `release` (called after each save). */
export type HeldResults = { readonly emit: Emit; readonly release: () => void };

/** Holds `tool-done` events for `emit`; any other event first lets the held ones out, in order. */
export const holdResults = (emit: Emit): HeldResults => {
  const held: TurnEvent[] = [];
  const release = (): void => {
    for (const event of held.splice(0)) emit(event);
  };
  return {
    emit: (event) => {
      if (event.type === "tool-done") {
        held.push(event);
        return;
      }
      release();
      emit(event);
    },
    release,
  };
};
