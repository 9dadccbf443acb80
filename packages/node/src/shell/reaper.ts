/**
 * What ends mm's process groups and sessions when mm cannot: an editor ends its agent with SIGKILL
 * (Emacs acp.el's `delete-process`, agent-shell killing its buffer), and a command runs in a session
 * of its own, so it would run on with ppid 1. The reaper is one small bash process per agent, in a
 * session of its own, reading lines on a pipe only the agent holds: `+ <id>` and `- <id>` as a
 * command's or MCP server's session (its leader's pid, also its group's id) starts and empties,
 * `dir <path>` for a directory to remove. When the pipe ends (the agent exited, however it ended:
 * stdin closed, a signal, SIGKILL, a crash, the OOM killer), it SIGKILLs every group still listed and
 * every process whose session is listed (field 6 of `/proc/<pid>/stat`: a job that moved to a group
 * of its own, as GNU `timeout` and `set -m` jobs do), removes the directories, then exits; the kernel
 * closes the pipe at once, so that is within milliseconds of the agent's death. What a command
 * detaches on purpose (`setsid`, a double fork into a new session) leaves its session and is not
 * followed. It starts with the first group or directory it is told about: an agent that never runs
 * anything never starts one.
 */
import { spawn } from "node:child_process";

/** Tells the reaper about groups and directories; every call is a no-op once it is gone. */
export type Reaper = {
  readonly track: (pgid: number) => void;
  readonly untrack: (pgid: number) => void;
  readonly removeAtEnd: (dir: string) => void;
};

/** In the reaper's command line, so a process listing can tell it from a command. */
export const REAPER_MARK = "mm-reaper";

/**
 * Lines in, then: kill the groups still listed and every member of their sessions, remove the
 * directories, exit. A stat line is read whole (`-d ""`: a command name may hold a newline) and cut
 * after its last `) ` (the name may hold those too). The passes repeat while they find someone (at
 * most 5): a member forking between the read and the kill leaves a child the pass missed.
 */
const REAPER_SCRIPT = [
  `# ${REAPER_MARK}`,
  "declare -A groups; dirs=()",
  // The whole line, its spaces kept: a directory's name may end in one.
  "while IFS= read -r line; do op=${line%% *}; arg=${line#* }",
  '  case "$op" in',
  '    +) groups["$arg"]=1 ;;',
  '    -) unset "groups[$arg]" ;;',
  '    dir) dirs+=("$arg") ;;',
  "  esac",
  "done",
  'for pgid in "${!groups[@]}"; do kill -KILL -- "-$pgid" 2>/dev/null; done',
  "for pass in 1 2 3 4 5; do found=",
  "  for stat in /proc/[0-9]*/stat; do",
  '    line=; read -r -d "" line 2>/dev/null < "$stat"; rest=${line##*) }',
  // Fields after the name: state, ppid, pgrp, session.
  "    state=${rest%% *}; rest=${rest#* }; rest=${rest#* }; rest=${rest#* }; sid=${rest%% *}",
  '    if [[ $state != [ZX] && $sid =~ ^[0-9]+$ && -n ${groups[$sid]} ]]; then pid=${stat#/proc/}; kill -KILL "${pid%/stat}" 2>/dev/null && found=1; fi',
  "  done",
  "  [[ -n $found ]] || break",
  "done",
  'for dir in "${dirs[@]}"; do rm -rf -- "$dir"; done',
].join("\n");

/** A reaper that does nothing (no bash, or a platform without process groups). */
export const NO_REAPER: Reaper = { track: () => undefined, untrack: () => undefined, removeAtEnd: () => undefined };

/**
 * The agent's reaper, started at its first line (see the module comment); every call a no-op once it
 * could not start or is gone. It never keeps the agent's event loop alive.
 */
export const startReaper = (bashPath = "bash"): Reaper => {
  let child: ReturnType<typeof spawn> | undefined;
  let alive = true;
  const start = (): void => {
    try {
      child = spawn(bashPath, ["-c", REAPER_SCRIPT], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
    } catch {
      alive = false;
      return;
    }
    child.on("error", () => void (alive = false));
    child.on("exit", () => void (alive = false));
    child.stdin?.on("error", () => void (alive = false));
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  };
  const send = (line: string): void => {
    if (alive && child === undefined) start();
    const stdin = child?.stdin;
    if (alive && stdin !== null && stdin !== undefined && !stdin.destroyed) stdin.write(`${line}\n`);
  };
  return {
    track: (pgid) => send(`+ ${pgid}`),
    // Nothing to untrack before the first group.
    untrack: (pgid) => {
      if (child !== undefined) send(`- ${pgid}`);
    },
    removeAtEnd: (dir) => {
      if (!dir.includes("\n")) send(`dir ${dir}`);
    },
  };
};
