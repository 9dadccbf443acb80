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

/**
 * The mode for a file whose permissions beyond the executable bit are not known (git keeps only
 * that bit): readable by its owner only, `0600` or `0700`, under the umask. Never more readable than
 * the file may have been.
 */
export const ownerOnlyMode = (executable: boolean): number => (executable ? 0o700 : 0o600) & ~processUmask();
