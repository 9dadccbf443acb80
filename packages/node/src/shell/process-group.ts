/**
 * Signals and liveness of what a command starts. Every command leads a session of its own (Node's
 * `detached` calls `setsid`), so its session id is its pid, which is also its process group's id. A
 * job can move to a group of its own inside that session (GNU `timeout` calls `setpgid`, `set -m`
 * gives each job a group), but only `setsid` takes it out of the session: so what a command started
 * is its session, found by a pass over `/proc` (field 6 of `/proc/<pid>/stat`), and its group for
 * platforms without `/proc`. The pass costs a few milliseconds, so it is made at kill and cleanup
 * time, never on a command's way. Zombies do not count as alive: an init that does not reap them must
 * not make a killed session look alive.
 */
import { readdirSync, readFileSync } from "node:fs";
import { errorCode } from "../errno.js";

/** Sends `signal` to every process of group `pgid`; false when the group no longer exists. */
export const signalGroup = (pgid: number, signal: NodeJS.Signals | 0): boolean => {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM";
  }
};

const signalProcess = (pid: number, signal: NodeJS.Signals): void => {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone meanwhile.
  }
};

type ProcStat = { readonly state: string; readonly pgrp: number; readonly session: number };

/** State, group and session of a process, read from `/proc/<pid>/stat`; undefined when unreadable. */
const procStat = (pid: string): ProcStat | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After the last ")": the command name may hold anything, spaces and parentheses included.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ", 4);
    return { state: fields[0] ?? "", pgrp: Number(fields[2]), session: Number(fields[3]) };
  } catch {
    return undefined;
  }
};

const isLive = (stat: ProcStat): boolean => stat.state !== "Z" && stat.state !== "X";

/** One pass over /proc: every live process whose stat `select` picks, by pid; undefined without /proc. */
const liveProcesses = (select: (stat: ProcStat) => boolean): readonly [number, ProcStat][] | undefined => {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const found: [number, ProcStat][] = [];
  for (const entry of entries) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const stat = procStat(entry);
    if (stat !== undefined && isLive(stat) && select(stat)) found.push([Number(entry), stat]);
  }
  return found;
};

/** True while some process of group `pgid` is still running (zombies excluded where /proc exists). */
export const isGroupAlive = (pgid: number): boolean => {
  if (!signalGroup(pgid, 0)) return false;
  const members = liveProcesses((stat) => stat.pgrp === pgid);
  return members === undefined || members.length > 0;
};

/** Which of `sessions` still have a running member, in one pass over /proc; without /proc, those whose group exists. */
export const sessionsAlive = (sessions: Iterable<number>): ReadonlySet<number> => {
  const wanted = new Set(sessions);
  if (wanted.size === 0) return wanted;
  const members = liveProcesses((stat) => wanted.has(stat.session));
  if (members === undefined) return new Set([...wanted].filter((sid) => signalGroup(sid, 0)));
  return new Set(members.map(([, stat]) => stat.session));
};

/**
 * Sends `signal` to every process of each of `sessions` (by group, then each member found in one pass
 * over /proc, whatever group it moved to); returns the sessions that had a process to signal.
 */
export const signalSessions = (sessions: Iterable<number>, signal: NodeJS.Signals): ReadonlySet<number> => {
  const wanted = new Set(sessions);
  const signalled = new Set<number>();
  if (wanted.size === 0) return signalled;
  for (const sid of wanted) if (signalGroup(sid, signal)) signalled.add(sid);
  for (const [pid, stat] of liveProcesses((stat) => wanted.has(stat.session)) ?? []) {
    signalProcess(pid, signal);
    signalled.add(stat.session);
  }
  return signalled;
};

/** Options of {@link terminateSession}. */
export type TerminateOptions = {
  /** How long the session gets to exit after SIGTERM before SIGKILL. */
  readonly graceMs: number;
  /** How often liveness is checked meanwhile. */
  readonly pollMs: number;
};

/**
 * SIGTERM to every process of session `sid`, then SIGKILL once `graceMs` have passed with one still
 * alive. Resolves once the session is empty or has been sent SIGKILL; never rejects.
 */
export const terminateSession = (sid: number, options: TerminateOptions): Promise<void> =>
  new Promise((resolve) => {
    if (signalSessions([sid], "SIGTERM").size === 0) {
      resolve();
      return;
    }
    const deadline = Date.now() + options.graceMs;
    const check = (): void => {
      if (sessionsAlive([sid]).size === 0) {
        resolve();
      } else if (Date.now() >= deadline) {
        // Twice: a member forking between the pass and its signal leaves a child the first one missed.
        signalSessions([sid], "SIGKILL");
        signalSessions([sid], "SIGKILL");
        resolve();
      } else {
        setTimeout(check, options.pollMs);
      }
    };
    setTimeout(check, Math.min(options.pollMs, options.graceMs));
  });
