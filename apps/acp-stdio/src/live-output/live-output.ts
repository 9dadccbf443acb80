/**
 * A turn's live command output on its way to the editor: the first text of a call leaves at once,
 * later text is coalesced to at most one update per interval (100 ms: ten a second). Clients that
 * want a terminal get the new text (`terminal_output`); the others a `tool_call_update` whose text
 * content is the output so far, capped like the final output. A silent command sends nothing.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ToolCallView } from "@mm/core";
import { terminalOutputUpdate } from "../translate/terminal.js";
import { textContent } from "../translate/tool-call.js";
import { boundedOutput, type OutputBuffer } from "@mm/node";

/** Time for the throttle: a clock, and a way to run something later (returning how to cancel it). */
export type LiveClock = {
  readonly now: () => number;
  readonly later: (run: () => void, ms: number) => () => void;
};

export type LiveOutputOptions = {
  /** Calls that stream output are shown as terminals (the client opted in). */
  readonly terminal: boolean;
  /** The cap of each update's text (`tools.maxOutputBytes`). */
  readonly maxBytes: number;
  readonly send: (update: acp.SessionUpdate) => void;
  /** At most one update per call this often after the first. Default 100 ms. */
  readonly intervalMs?: number;
  readonly clock?: LiveClock;
};

/** One turn's live output. */
export type LiveOutput = {
  /** More output of a running call. */
  readonly output: (call: ToolCallView, text: string) => void;
  /** The call ended: what a terminal has not been sent yet goes now; nothing is sent for it afterwards. */
  readonly done: (call: ToolCallView) => void;
  /** The turn ended: nothing more is sent. */
  readonly close: () => void;
};

/** Real time: `performance.now()` and `setTimeout`. */
const systemLiveClock: LiveClock = {
  now: () => performance.now(),
  later: (run, ms) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
};

type CallState = {
  readonly call: ToolCallView;
  readonly asTerminal: boolean;
  /** A terminal's text not sent yet; otherwise all the output so far (capped like the final output). */
  text: OutputBuffer;
  unsent: boolean;
  lastSentAt: number | undefined;
  cancelTimer: (() => void) | undefined;
};

export const liveOutput = (options: LiveOutputOptions): LiveOutput => {
  const intervalMs = options.intervalMs ?? 100;
  const clock = options.clock ?? systemLiveClock;
  const calls = new Map<string, CallState>();

  const flush = (state: CallState): void => {
    state.cancelTimer?.();
    state.cancelTimer = undefined;
    if (!state.unsent) return;
    state.unsent = false;
    state.lastSentAt = clock.now();
    if (state.asTerminal) {
      const data = state.text.text();
      state.text = boundedOutput(options.maxBytes);
      options.send(terminalOutputUpdate(state.call, data));
      return;
    }
    options.send({ sessionUpdate: "tool_call_update", toolCallId: state.call.id, status: "in_progress", content: [textContent(state.text.text())] });
  };

  const stateOf = (call: ToolCallView): CallState => {
    const known = calls.get(call.id);
    if (known !== undefined) return known;
    const state: CallState = {
      call,
      asTerminal: options.terminal && call.streamsOutput === true,
      text: boundedOutput(options.maxBytes),
      unsent: false,
      lastSentAt: undefined,
      cancelTimer: undefined,
    };
    calls.set(call.id, state);
    return state;
  };

  return {
    output: (call, text) => {
      if (text === "") return;
      const state = stateOf(call);
      state.text.push(Buffer.from(text, "utf8"));
      state.unsent = true;
      if (state.cancelTimer !== undefined) return;
      const wait = state.lastSentAt === undefined ? 0 : state.lastSentAt + intervalMs - clock.now();
      if (wait <= 0) flush(state);
      else state.cancelTimer = clock.later(() => flush(state), wait);
    },
    done: (call) => {
      const state = calls.get(call.id);
      if (state === undefined) return;
      calls.delete(call.id);
      if (state.asTerminal) flush(state);
      else state.cancelTimer?.();
    },
    close: () => {
      for (const state of calls.values()) state.cancelTimer?.();
      calls.clear();
    },
  };
};
