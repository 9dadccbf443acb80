/** What the engine tells its front end while a turn runs. */
import type { PlanEntry, ToolOutcome } from "../tools/tool.js";
import type { ToolCallView } from "../vocabulary/tool-call-view.js";

/** How much a notice matters to the user. */
export type NoticeSeverity = "info" | "warning" | "error";

/** What happens in a turn, in order, as the front end shows it. */
export type TurnEvent =
  /** A streamed piece of the model's answer, whitespace preserved. */
  | { readonly type: "text"; readonly text: string }
  /** A streamed piece of the model's reasoning. */
  | { readonly type: "thought"; readonly text: string }
  /** The task list, as a plan tool set it (the whole list). */
  | { readonly type: "plan"; readonly entries: readonly PlanEntry[] }
  /**
   * A line of mm's own, shown like model text. With a `severity` it is not part of any answer (the
   * session not saved, an answer cut off, images refused, a turn stopped): a front end may show it
   * apart (ACP's `notice` update); without one it is the reply of a command (`/new`, `/undo`).
   */
  | { readonly type: "notice"; readonly text: string; readonly severity?: NoticeSeverity }
  /** A tool call is about to be considered: shown as pending, with its proposed diff. */
  | { readonly type: "tool-pending"; readonly call: ToolCallView }
  /** Permission granted (or not needed): the tool runs now. */
  | { readonly type: "tool-running"; readonly call: ToolCallView }
  /** More output of a running call (the new text only, in order; never after its `tool-done`). */
  | { readonly type: "tool-output"; readonly call: ToolCallView; readonly text: string }
  | ({ readonly type: "tool-done"; readonly call: ToolCallView } & ToolOutcome)
  /** The session was named (after its first prompt). */
  | { readonly type: "title"; readonly title: string }
  /** After each model step: tokens in use and the context window. */
  /** `cost`: what the session cost so far in US dollars, when known. */
  | { readonly type: "usage"; readonly used: number; readonly size: number; readonly cost?: number }
  /** The history was compacted (automatically or by `/compact`). */
  | {
      readonly type: "compaction";
      readonly outcome: "compacted" | "nothing" | "failed";
      readonly line: string;
      readonly summary: string | undefined;
    };

/** Receives a turn's events as they happen. */
export type Emit = (event: TurnEvent) => void;
