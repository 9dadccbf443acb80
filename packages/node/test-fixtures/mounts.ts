/**
 * Test mounts for sessions dirs that fail as a user's would: a small tmpfs (a full disk) and a read-only
 * bind mount (an unwritable dir, even for root). Mounting needs root (CAP_SYS_ADMIN); `mountsAvailable`
 * says whether this run can, and why not.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const run = (args: readonly string[]): string | undefined => {
  const done = spawnSync(args[0]!, args.slice(1), { encoding: "utf8" });
  return done.status === 0 ? undefined : `${args.join(" ")}: ${(done.stderr || done.error?.message || `exit ${done.status}`).trim()}`;
};

/** Undefined when this process can mount (root with CAP_SYS_ADMIN), else why it cannot. */
export const mountsUnavailable = (): string | undefined => {
  if (process.platform !== "linux") return "mounts are only tried on Linux";
  if (process.getuid?.() !== 0) return "not running as root (a tmpfs and a read-only bind mount need root)";
  const probe = mkdtempSync(join(tmpdir(), "mm-mount-probe-"));
  try {
    const failed = run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]);
    if (failed !== undefined) return failed;
    run(["umount", probe]);
    return undefined;
  } finally {
    rmdirSync(probe);
  }
};

/** Mounts a tmpfs of `size` (e.g. "512k") on `dir`. */
export const mountTmpfs = (dir: string, size: string): void => {
  const failed = run(["mount", "-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", dir]);
  if (failed !== undefined) throw new Error(failed);
};

/** Makes `dir` read-only where it is (a bind mount of itself, remounted read-only). */
export const mountReadOnly = (dir: string): void => {
  const failed = run(["mount", "--bind", dir, dir]) ?? run(["mount", "-o", "remount,ro,bind", dir]);
  if (failed !== undefined) throw new Error(failed);
};

/** Unmounts `dir` (lazily, so an open file cannot keep the test from cleaning up). */
export const unmount = (dir: string): void => {
  run(["umount", "-l", dir]);
};
