/**
 * Who holds a session lock, and whether that holder still runs: a process is its pid plus its start
 * time and the machine's boot id (so a reused pid or a reboot is not taken for the holder), and the
 * host name (a holder on another machine cannot be checked, so it counts as alive).
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { errorCode } from "../errno.js";

/** A process as a lock file records it. */
export type LockOwner = {
  readonly pid: number;
  /** The process's start time in clock ticks since boot (`/proc/<pid>/stat` field 22), where known. */
  readonly started?: string;
  /** `/proc/sys/kernel/random/boot_id`, where known. */
  readonly boot?: string;
  readonly host: string;
};

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
};

type ProcStat = { readonly state: string; readonly started: string } | "gone" | "unknown";

/** State and start time of `pid` from /proc: "gone" when it has no entry, "unknown" without /proc. */
const procStat = (pid: number): ProcStat => {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (error) {
    if (errorCode(error) !== "ENOENT") return "unknown";
    return readText("/proc/self/stat") === undefined ? "unknown" : "gone";
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0] ?? "", started: fields[19] ?? "" };
};

/** This process, as its lock files name it. */
export const currentOwner = (): LockOwner => {
  const self = procStat(process.pid);
  const boot = readText("/proc/sys/kernel/random/boot_id")?.trim();
  return {
    pid: process.pid,
    ...(typeof self === "object" ? { started: self.started } : {}),
    ...(boot !== undefined && boot !== "" ? { boot } : {}),
    host: hostname(),
  };
};

/** Whether `owner` may still run, as far as `self` can tell (a holder it cannot check counts as alive). */
export const ownerAlive =
  (self: LockOwner) =>
  (owner: LockOwner): boolean => {
    if (owner.host !== self.host) return true;
    if (owner.boot !== undefined && self.boot !== undefined && owner.boot !== self.boot) return false;
    const stat = procStat(owner.pid);
    if (stat === "gone") return false;
    if (stat === "unknown") {
      try {
        process.kill(owner.pid, 0);
        return true;
      } catch (error) {
        return errorCode(error) !== "ESRCH";
      }
    }
    if (stat.state === "Z" || stat.state === "X") return false;
    return owner.started === undefined || owner.started === stat.started;
  };

/** The same process (pid, start time, boot and host alike). */
export const sameOwner = (a: LockOwner, b: LockOwner): boolean => a.pid === b.pid && a.started === b.started && a.boot === b.boot && a.host === b.host;

/** A holder for a person: `pid 4242`, or `pid 4242 on host build-7`. */
export const describeOwner = (owner: LockOwner, self: LockOwner): string =>
  owner.host === self.host ? `pid ${owner.pid}` : `pid ${owner.pid} on host ${owner.host}`;
