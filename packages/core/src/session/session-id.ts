/** Session ids: time-sortable, UTC, `YYYYMMDD-HHMMSS-xxxxxxxx`. */
import type { Clock, RandomHex } from "../ports/clock.js";

/** The form of a session id: `YYYYMMDD-HHMMSS-xxxxxxxx`, UTC. */
export const SESSION_ID = /^\d{8}-\d{6}-[0-9a-f]{8}$/;

/** True for a string of the session-id form (checked before any path is built from it). */
export const isSessionId = (value: unknown): value is string => typeof value === "string" && SESSION_ID.test(value);

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** A new, time-sortable session id. */
export const newSessionId = (clock: Clock, random: RandomHex): string => {
  const d = new Date(clock.now());
  const date = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
  return `${date}-${time}-${random.hex(8)}`;
};
