/**
 * A session's toolbox seen through a turn's recorder: every call that runs tells it what it changed
 * (a tool of kind `edit`, `delete` or `move` tells it first which files it is about to write), so
 * `/undo` can put them back. A tool whose changes nobody reports (an MCP server's) has its call watched
 * by the change tracker, as a command is: what it saw is recorded, and only recorded (the call's
 * result, shown and kept, is the tool's own). The tools are otherwise the same: names, specs,
 * checks, titles, previews.
 */
import type { ChangeSnapshot } from "../ports/change-tracker.js";
import type { PreparedCall, Tool, ToolContext, ToolOutcome } from "../tools/tool.js";
import type { ToolKind } from "../vocabulary/tool-call-view.js";
import { toolboxOf, type Toolbox } from "../tools/toolbox.js";
import type { TurnFiles } from "./turn-files.js";

/** Kinds of tools that change the files they name (their locations). */
const WRITES_NAMED: readonly ToolKind[] = ["edit", "delete", "move"];
/** Kinds of tools that change nothing. */
const CHANGES_NOTHING: readonly ToolKind[] = ["read", "search", "fetch", "think"];

/**
 * Tools whose changes nobody reports: not bash (it watches its own), not the built-in file tools
 * (their diffs say it all), not those that only read or think.
 */
const unreported = (tool: Tool): boolean => tool.spec.name !== "bash" && tool.counts !== "file" && !CHANGES_NOTHING.includes(tool.kind);

const watch = async (ctx: ToolContext): Promise<ChangeSnapshot | undefined> =>
  ctx.changes === undefined ? undefined : (await ctx.changes.begin(ctx.cwd)).unwrapOr(undefined);

/** The outcome as the recorder sees it: with what the tracker saw of the call, when it watched. */
const seenBy = async (snapshot: ChangeSnapshot | undefined, outcome: ToolOutcome): Promise<ToolOutcome> => {
  if (snapshot === undefined) return outcome;
  const seen = (await snapshot.finish()).unwrapOr([]);
  const { before, hidden } = snapshot;
  return seen.length === 0
    ? outcome
    : { ...outcome, diffs: [...outcome.diffs, ...seen], ...(before !== undefined ? { before } : {}), ...(hidden !== undefined ? { hidden } : {}) };
};

const recorded = (tool: Tool, files: TurnFiles): Tool => ({
  ...tool,
  prepare: (input) =>
    tool.prepare(input).map(
      (call): PreparedCall => ({
        ...call,
        run: async (ctx) => {
          const named = WRITES_NAMED.includes(tool.kind) ? call.locations(ctx) : [];
          if (named.length > 0) await files.beforeCall(named);
          const snapshot = unreported(tool) ? await watch(ctx) : undefined;
          const { before, hidden, ...outcome } = await call.run(ctx);
          const kept = { ...outcome, ...(before !== undefined ? { before } : {}), ...(hidden !== undefined ? { hidden } : {}) };
          await files.afterCall(named, await seenBy(snapshot, kept));
          return outcome;
        },
      }),
    ),
});

/** `toolbox` whose calls `files` records. */
export const recordingToolbox = (toolbox: Toolbox, files: TurnFiles): Toolbox => toolboxOf(toolbox.tools.map((tool) => recorded(tool, files)));
