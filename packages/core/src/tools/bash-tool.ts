/** `bash {command, timeout_seconds?}`: runs a command in the session cwd through the Shell port. */
import { ok } from "neverthrow";
import type { FileDiff } from "../history/message.js";
import { describeChangeTrackingError, type ChangeSnapshot } from "../ports/change-tracker.js";
import { asObject, optionalNumber, requiredString } from "./input.js";
import { completed, failed, noPreview, type Tool, type ToolContext } from "./tool.js";

export type BashInput = { readonly command: string; readonly timeoutSeconds?: number };

const describeEnd = (exitCode: number | null, signal: string | null, timedOut: boolean, cancelled: boolean): string => {
  if (cancelled) return "[cancelled]";
  if (timedOut) return "[timed out, process group killed]";
  if (exitCode !== null) return `[exit code: ${exitCode}]`;
  return `[killed by ${signal ?? "a signal"}]`;
};

/** Starts watching the cwd for file changes, when a tracker is there; says once why it cannot. */
const watch = async (ctx: ToolContext): Promise<ChangeSnapshot | undefined> => {
  if (ctx.changes === undefined) return undefined;
  const begun = await ctx.changes.begin(ctx.cwd);
  if (begun.isOk()) return begun.value;
  ctx.warn?.(`${describeChangeTrackingError(begun.error)} (${ctx.cwd})`);
  return undefined;
};

const changesSince = async (snapshot: ChangeSnapshot | undefined, ctx: ToolContext): Promise<readonly FileDiff[]> => {
  if (snapshot === undefined) return [];
  const finished = await snapshot.finish();
  if (finished.isOk()) return finished.value;
  ctx.warn?.(`${describeChangeTrackingError(finished.error)} (${ctx.cwd})`);
  return [];
};

export const bashTool: Tool<BashInput> = {
  spec: {
    name: "bash",
    description:
      "Run a bash command in the session's working directory. stdout and stderr are merged; the exit code is appended. Long output keeps its head and tail.",
    inputSchema: {
      type: "object",
      properties: {
        command: { type: "string", description: "The command line, run with bash -c" },
        timeout_seconds: { type: "number", description: "Kill the command after this many seconds" },
      },
      required: ["command"],
      additionalProperties: false,
    },
  },
  gated: true,
  parse: (input) =>
    asObject(input).andThen((fields) =>
      requiredString(fields, "command").andThen((command) =>
        optionalNumber(fields, "timeout_seconds").andThen((timeoutSeconds) =>
          ok(timeoutSeconds === undefined ? { command } : { command, timeoutSeconds }),
        ),
      ),
    ),
  locations: () => [],
  preview: noPreview,
  run: async (input, ctx) => {
    const timeoutMs = input.timeoutSeconds !== undefined ? input.timeoutSeconds * 1000 : ctx.limits.bashTimeoutMs;
    const snapshot = await watch(ctx);
    const result = await ctx.shell.run({
      command: input.command,
      cwd: ctx.cwd,
      timeoutMs,
      maxOutputBytes: ctx.limits.maxOutputBytes,
      signal: ctx.signal,
    });
    const diffs = await changesSince(snapshot, ctx);
    return result.match(
      (r) => {
        const end = describeEnd(r.exitCode, r.signal, r.timedOut, r.cancelled);
        const text = r.output.length === 0 || r.output.endsWith("\n") ? `${r.output}${end}` : `${r.output}\n${end}`;
        return r.exitCode === 0 ? completed(text, diffs) : { ...failed(text), diffs };
      },
      (e) => failed(`[could not run bash: ${e.message}]`),
    );
  },
};
