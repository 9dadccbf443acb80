/**
 * This process's umask, read from `/proc/self/status` (Linux) rather than with `process.umask()`,
 * whose form without an argument is deprecated (it sets the mask to read it). `0o022` where it
 * cannot be read.
 */
import { readFileSync } from "node:fs";

let known: number | undefined;

/** The umask (`0o022`, `0o077`…), read once. */
export const processUmask = (): number => {
  if (known !== undefined) return known;
  try {
    const line = /^Umask:\s*([0-7]+)$/m.exec(readFileSync("/proc/self/status", "utf8"));
    known = line === null ? 0o022 : Number.parseInt(line[1]!, 8);
  } catch {
    known = 0o022;
  }
  return known;
};

/** The mode git gives a file it checks out: `0666` or `0777` (executable) under the umask. */
export const checkoutMode = (executable: boolean): number => (executable ? 0o777 : 0o666) & ~processUmask();
