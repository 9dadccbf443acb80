/**
 * What the kernel says about a child process: CPU time from /proc/<pid>/stat (utime + stime, every
 * thread of the process, in clock ticks) and memory from /proc/<pid>/status (VmRSS now, VmHWM peak).
 * Linux only, which is what the benchmark targets.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

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
