/**
 * A session's toolbox whose calls run holding its places (`place-lock.ts`): with sessions side
 * by side, two sessions sharing a cwd never run tools at once, so a command's change tracker (and
 * `/undo`'s recorder) sees only what its own call changed. Everything before the run (checks,
 * previews, the permission dialog) is not held; a call whose turn was cancelled while it waited does
 * not start. A tool touching no file (`placeFree`: `ask_user`, which waits for the user) holds nothing.
 */
import type { PlaceLock } from "./place-lock.js";
import type { PreparedCall, Tool, ToolOutcome } from "../tools/tool.js";
import { toolboxOf, type Toolbox } from "../tools/toolbox.js";

const CANCELLED: ToolOutcome = { status: "failed", output: "[cancelled]", diffs: [] };

const locked = (tool: Tool, lock: PlaceLock, places: readonly string[]): Tool => ({
  ...tool,
  prepare: (input) =>
    tool.prepare(input).map(
      (call): PreparedCall => ({
        ...call,
        run: (ctx) => lock.hold(places, async () => (ctx.signal.aborted ? CANCELLED : call.run(ctx))),
      }),
    ),
});

/** `toolbox` whose calls each hold `places` in `lock` while they run. */
export const placeLockedToolbox = (toolbox: Toolbox, lock: PlaceLock, places: readonly string[]): Toolbox =>
  toolboxOf(toolbox.tools.map((tool) => (tool.placeFree ? tool : locked(tool, lock, places))));
