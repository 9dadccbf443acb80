/** How a tool call is shown to the user: the title, kind and places the editor displays. */
import type { FileDiff } from "../history/message.js";

/** How an editor shows a call (ACP's tool kinds). */
export type ToolKind = "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "other";

/** A tool call as the user sees it, from pending to done. */
export type ToolCallView = {
  readonly id: string;
  readonly name: string;
  readonly title: string;
  readonly kind: ToolKind;
  readonly input: unknown;
  /** Absolute paths of the files involved. */
  readonly locations: readonly string[];
  /** For edits, the proposed change, so the user judges it before allowing it. */
  readonly diffs: readonly FileDiff[];
  /** The tool reports output while the call runs (`tool-output` events), as a terminal would. */
  readonly streamsOutput?: boolean;
};
