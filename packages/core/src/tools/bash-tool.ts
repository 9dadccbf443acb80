/** `bash {command, timeout_seconds?}`: runs a command in the session cwd through the Shell port. */
import type { FileDiff } from "../history/message.js";
import { describeChangeTrackingError, type ChangeSnapshot } from "../ports/change-tracker.js";
import type { ShellResult } from "../ports/shell.js";
import { object } from "../schema/object.js";
import { number, optional, string } from "../schema/schema.js";
import { completed, defineTool, failed, type ToolContext } from "./tool.js";

const describeEnd = (r: ShellResult): string => {
  if (r.cancelled) return "[cancelled]";
  if (r.timedOut) return "[timed out, process group killed]";
  if (r.exitCode !== null) return `[exit code: ${r.exitCode}]`;
  return `[killed by ${r.signal ?? "a signal"}]`;
};

/** Starts watching the cwd for file changes, when a tracker is there; says once why it cannot. */
const watch = async (ctx: ToolContext): Promise<ChangeSnapshot | undefined> => {
  if (ctx.changes === undefined) return undefined;
  const begun = await ctx.changes.begin(ctx.cwd);
  if (begun.isOk()) return begun.value;
  ctx.warn(`${describeChangeTrackingError(begun.error)} (${ctx.cwd})`);
  return undefined;
};

const changesSince = async (snapshot: ChangeSnapshot | undefined, ctx: ToolContext): Promise<readonly FileDiff[]> => {
  if (snapshot === undefined) return [];
  const finished = await snapshot.finish();
  if (finished.isOk()) return finished.value;
  ctx.warn(`${describeChangeTrackingError(finished.error)} (${ctx.cwd})`);
  return [];
};

/** The command's output with how it ended appended (`[exit code: N]`, `[cancelled]`…). */
export const commandOutput = (r: ShellResult): string => {
  const end = describeEnd(r);
  return r.output.length === 0 || r.output.endsWith("\n") ? `${r.output}${end}` : `${r.output}\n${end}`;
};

/** `bash`: gated, counts as a command. */
export const bashTool = defineTool({
  name: "bash",
  description:
    "Run a bash command in the session's working directory. stdout and stderr are merged; the exit code is appended. Long output keeps its head and tail.",
  guidance:
    "your main tool. Run commands in the working directory to explore (ls, rg, grep, find, git), build, test and change things. Prefer small, verifiable steps; read the output before going on. A call returns when the command and everything holding its output have ended: start long-running servers in the background with their output redirected (`cmd > log 2>&1 &`).",
  kind: "execute",
  counts: "command",
  gated: true,
  streamsOutput: true,
  input: object(
    {
      command: string({ description: "The command line, run with bash -c" }),
      timeout_seconds: optional(number({ min: 0, description: "Kill the command after this many seconds" })),
    },
    { nullMeansAbsent: true },
  ),
  title: (input) => `bash: ${input.command}`,
  run: async (input, ctx) => {
    const timeoutMs = input.timeout_seconds !== undefined ? input.timeout_seconds * 1000 : ctx.limits.bashTimeoutMs;
    const snapshot = await watch(ctx);
    const result = await ctx.shell.run({
      command: input.command,
      cwd: ctx.cwd,
      timeoutMs,
      maxOutputBytes: ctx.limits.maxOutputBytes,
      signal: ctx.signal,
      ...(ctx.progress !== undefined ? { onOutput: ctx.progress } : {}),
    });
    const diffs = await changesSince(snapshot, ctx);
    const before = snapshot?.before;
    const hidden = snapshot?.hidden;
    return result.match(
      (r) => ({
        ...(r.exitCode === 0 ? completed(commandOutput(r), diffs) : failed(commandOutput(r), diffs)),
        exit: { code: r.exitCode, signal: r.signal },
        ...(before !== undefined && diffs.length > 0 ? { before } : {}),
        ...(hidden !== undefined && diffs.length > 0 ? { hidden } : {}),
      }),
      (e) => failed(`[could not run bash: ${e.message}]`),
    );
  },
});
