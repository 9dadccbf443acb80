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

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);

/**
 * The directories a command's changes are watched in: the cwd, and each additional one not inside a
 * directory already watched (one that holds the cwd is watched too: its changes outside the cwd).
 */
export const watchedDirs = (cwd: string, roots: readonly string[]): readonly string[] => {
  const dirs: string[] = [cwd];
  for (const root of roots) {
    if (dirs.some((dir) => inside(root, dir))) continue;
    for (let i = dirs.length - 1; i > 0; i--) if (inside(dirs[i]!, root)) dirs.splice(i, 1);
    dirs.push(root);
  }
  return dirs;
};

/** One snapshot per watched directory. */
type Watch = { readonly dir: string; readonly snapshot: ChangeSnapshot };

/** Starts watching the cwd (and the additional directories) for file changes, when a tracker is there; says once why it cannot. */
const watch = async (ctx: ToolContext): Promise<readonly Watch[]> => {
  const changes = ctx.changes;
  if (changes === undefined) return [];
  const begun = await Promise.all(
    watchedDirs(ctx.cwd, ctx.roots ?? []).map(async (dir): Promise<Watch | undefined> => {
      const snapshot = await changes.begin(dir);
      if (snapshot.isOk()) return { dir, snapshot: snapshot.value };
      ctx.warn(`${describeChangeTrackingError(snapshot.error)} (${dir})`);
      return undefined;
    }),
  );
  return begun.filter((w): w is Watch => w !== undefined);
};

/** The diffs of every watch, each path from the innermost directory watched that holds it (the cwd's own inside a directory holding it). */
const changesSince = async (watches: readonly Watch[], ctx: ToolContext): Promise<readonly FileDiff[]> => {
  const all: FileDiff[] = [];
  for (const { dir, snapshot } of watches) {
    const finished = await snapshot.finish();
    if (finished.isErr()) {
      ctx.warn(`${describeChangeTrackingError(finished.error)} (${dir})`);
      continue;
    }
    const inner = watches.map((w) => w.dir).filter((other) => other !== dir && inside(other, dir));
    all.push(...finished.value.filter((diff) => !inner.some((other) => inside(diff.path, other))));
  }
  return all;
};

/** What the snapshots kept, asked of the one whose directory holds the path. */
const merged = <T>(
  watches: readonly Watch[],
  pick: (snapshot: ChangeSnapshot) => ((path: string) => T) | undefined,
): ((path: string) => T | undefined) | undefined => {
  const asked = watches.flatMap((w) => {
    const f = pick(w.snapshot);
    return f === undefined ? [] : [{ dir: w.dir, f }];
  });
  if (asked.length === 0) return undefined;
  if (asked.length === 1) return asked[0]!.f;
  return (path) => {
    // The innermost directory that holds it: the longest.
    const owner = asked.filter(({ dir }) => inside(path, dir)).sort((a, b) => b.dir.length - a.dir.length)[0];
    return owner?.f(path);
  };
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
    const watches = await watch(ctx);
    const result = await ctx.shell.run({
      command: input.command,
      cwd: ctx.cwd,
      ...(ctx.roots !== undefined && ctx.roots.length > 0 ? { writable: ctx.roots } : {}),
      timeoutMs,
      maxOutputBytes: ctx.limits.maxOutputBytes,
      signal: ctx.signal,
      ...(ctx.progress !== undefined ? { onOutput: ctx.progress } : {}),
    });
    const diffs = await changesSince(watches, ctx);
    const before = merged(watches, (s) => s.before);
    const hiddenOf = merged(watches, (s) => s.hidden);
    const hidden = hiddenOf === undefined ? undefined : (path: string): boolean => hiddenOf(path) === true;
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
