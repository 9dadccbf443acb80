/**
 * vitest global setup (and the bench's): every temporary file or directory a run makes (through
 * `os.tmpdir()`) lands in one directory of this run, `$TMPDIR/mm-<kind>-<pid>-XXXXXX`, removed when
 * the run ends. An interrupted run (Ctrl-C, a kill) is cleaned up too: a small detached process waits
 * for this one to end, lets the commands the run started go, and removes the directory; a leftover of
 * a run whose process is gone is removed by the next run.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Directories of earlier runs whose process is gone. */
const removeLeftovers = (parent: string, prefix: string): void => {
  for (const name of readdirSync(parent)) {
    const pid = Number(new RegExp(`^${prefix}(\\d+)-`).exec(name)?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && !alive(pid)) rmSync(join(parent, name), { recursive: true, force: true });
  }
};

/** Run by the janitor: once process argv[1] has ended, removes argv[2], again for a few seconds (late writers). */
const JANITOR = `
const [pid, dir] = process.argv.slice(1);
const { rmSync } = require("node:fs");
const alive = () => { try { process.kill(Number(pid), 0); return true; } catch { return false; } };
const sweep = (left) => { try { rmSync(dir, { recursive: true, force: true }); } catch {} if (left > 0) setTimeout(() => sweep(left - 1), 1000); };
const watch = () => (alive() ? setTimeout(watch, 500) : sweep(5));
watch();
`;

/**
 * Makes this run's temporary directory and points `TMPDIR` (so `os.tmpdir()`, here and in every
 * process started from now on) at it; `restore` removes it and puts `TMPDIR` back.
 */
export const tempRunDir = (kind: string): { readonly dir: string; readonly restore: () => void } => {
  const prefix = `mm-${kind}-`;
  const parent = tmpdir();
  const previous = process.env.TMPDIR;
  removeLeftovers(parent, prefix);
  const dir = mkdtempSync(join(parent, `${prefix}${process.pid}-`));
  spawn(process.execPath, ["-e", JANITOR, String(process.pid), dir], { detached: true, stdio: "ignore" }).unref();
  process.env.TMPDIR = dir;
  return {
    dir,
    restore: () => {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    },
  };
};

export default function setup(): () => void {
  return tempRunDir("tests").restore;
}
