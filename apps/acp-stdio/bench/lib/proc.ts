/**
 * What the kernel says about a child process: CPU time from /proc/<pid>/stat (utime + stime, every
 * thread of the process, in clock ticks) and memory from /proc/<pid>/status (VmRSS now, VmHWM peak).
 * Linux only, which is what the benchmark targets.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;

const clockTicks = (): number => {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
};

/** CPU time (user + system) the process has used so far, in milliseconds. */
export const cpuMs = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Field 2 (comm) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / clockTicks();
};

/**
 * CPU time the process has used so far, in milliseconds, to the nanosecond: the sum over its threads of
 * the scheduler's run time (/proc/<pid>/task/<tid>/schedstat), where /proc/<pid>/stat counts in clock
 * ticks (10 ms here, too coarse for a short turn). Falls back to `cpuMs` where schedstat is missing.
 */
export const cpuPreciseMs = (pid: number): number => {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // a thread that ended between the listing and the read
      }
    }
    return ns / 1e6;
  } catch {
    return cpuMs(pid);
  }
};

const statusKb = (pid: number, key: "VmRSS" | "VmHWM"): number => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status);
  if (!match) throw new Error(`no ${key} in /proc/${pid}/status`);
  return Number(match[1]);
};

/** Resident set size now, in MB (10^6 bytes). */
export const rssMb = (pid: number): number => (statusKb(pid, "VmRSS") * 1024) / 1e6;
/** Peak resident set size since the process started, in MB. */
export const peakRssMb = (pid: number): number => (statusKb(pid, "VmHWM") * 1024) / 1e6;
