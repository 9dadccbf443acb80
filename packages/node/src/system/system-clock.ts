/** The Clock and RandomHex ports on this process: wall-clock time and the OS's random bytes. */
import { randomBytes } from "node:crypto";
import type { Clock, RandomHex } from "@mm/core";

/** Milliseconds since the epoch, from `Date.now`. */
export const systemClock: Clock = { now: () => Date.now() };

/** Random hex digits from `crypto.randomBytes`. */
export const cryptoRandomHex: RandomHex = {
  hex: (n) =>
    randomBytes(Math.ceil(n / 2))
      .toString("hex")
      .slice(0, n),
};

/** The OS line of the system prompt for this process, e.g. `linux x64`. */
export const platformLine = (): string => `${process.platform} ${process.arch}`;
