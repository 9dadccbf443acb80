/** A call's view before (or without) its input being checked. */
import type { ToolCall } from "../history/message.js";
import type { ToolCallView } from "../vocabulary/tool-call-view.js";
import type { Toolbox } from "./toolbox.js";

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
