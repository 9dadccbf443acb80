/** How a tool call is shown to the user: the title, kind and places the editor displays. */
import type { FileDiff, ToolCall } from "../history/message.js";
import type { ToolKind } from "../tools/tool.js";
import type { Toolbox } from "../tools/toolbox.js";

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

/** The view of a call before (or without) its input being checked: titled by the tool's name. */
export const bareView = (call: ToolCall, toolbox: Toolbox): ToolCallView => ({
  id: call.id,
  name: call.name,
  title: call.name,
  kind: toolbox.byName.get(call.name)?.kind ?? "execute",
  input: call.input,
  locations: [],
  diffs: [],
  ...(toolbox.byName.get(call.name)?.streamsOutput === true ? { streamsOutput: true } : {}),
});
