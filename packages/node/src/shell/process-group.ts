/**
 * Signals and liveness of a process group (the group a detached child leads). Zombies do not count
 * as alive: an init that does not reap them must not make a killed group look alive.
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

/** Group id and state of a process, read from `/proc/<pid>/stat`; undefined when unreadable. */
const procStat = (pid: string): { readonly pgrp: number; readonly state: string } | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
};

const hasLiveMemberInProc = (pgid: number): boolean | undefined => {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  return entries.some((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    const stat = procStat(entry);
    return stat !== undefined && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X";
  });
};

/** True while some process of group `pgid` is still running (zombies excluded where /proc exists). */
export const isGroupAlive = (pgid: number): boolean => signalGroup(pgid, 0) && (hasLiveMemberInProc(pgid) ?? true);

/** Options of {@link terminateGroup}. */
export type TerminateOptions = {
  /** How long the group gets to exit after SIGTERM before SIGKILL. */
  readonly graceMs: number;
  /** How often liveness is checked meanwhile. */
  readonly pollMs: number;
};

/**
 * SIGTERM to the group, then SIGKILL once `graceMs` have passed with a member still alive. Resolves
 * once the group is gone or has been sent SIGKILL; never rejects.
 */
export const terminateGroup = (pgid: number, options: TerminateOptions): Promise<void> =>
  new Promise((resolve) => {
    if (!signalGroup(pgid, "SIGTERM")) {
      resolve();
      return;
    }
    const deadline = Date.now() + options.graceMs;
    const check = (): void => {
      if (!isGroupAlive(pgid)) {
        resolve();
      } else if (Date.now() >= deadline) {
        signalGroup(pgid, "SIGKILL");
        resolve();
      } else {
        setTimeout(check, options.pollMs);
      }
    };
    setTimeout(check, Math.min(options.pollMs, options.graceMs));
  });
