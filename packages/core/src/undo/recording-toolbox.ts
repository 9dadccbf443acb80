/**
 * A session's toolbox seen through a turn's recorder: every call that runs tells it what it changed
 * (a tool of kind `edit` tells it first which files it is about to write), so `/undo` can put them
 * back. The tools are otherwise the same: names, specs, checks, titles, previews.
 */
import type { PreparedCall, Tool } from "../tools/tool.js";
import { toolboxOf, type Toolbox } from "../tools/toolbox.js";
import type { TurnFiles } from "./turn-files.js";

const recorded = (tool: Tool, files: TurnFiles): Tool => ({
  ...tool,
  prepare: (input) =>
    tool.prepare(input).map(
      (call): PreparedCall => ({
        ...call,
        run: async (ctx) => {
          const named = tool.kind === "edit" ? call.locations(ctx) : [];
          if (named.length > 0) await files.beforeCall(named);
          const { before, ...outcome } = await call.run(ctx);
          await files.afterCall(named, before === undefined ? outcome : { ...outcome, before });
          return outcome;
        },
      }),
    ),
});

/** `toolbox` whose calls `files` records. */
export const recordingToolbox = (toolbox: Toolbox, files: TurnFiles): Toolbox => toolboxOf(toolbox.tools.map((tool) => recorded(tool, files)));
