/**
 * The validating pass's vocabulary, shared by the session document, its journal, its lock and the undo
 * log: a failure at one field as a value, and the one-line words that name what was found there.
 */
/** A validation failure at one field, carried as a value through the single pass. */
export class Invalid {
  constructor(readonly message: string) {}
}

export type Json = { readonly [key: string]: unknown };

export const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

export const shown = (value: unknown): string => {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value === "object" ? "an object" : String(value);
};

export const expected = (at: string, what: string, value: unknown): Invalid => new Invalid(`${at}: expected ${what}, got ${shown(value)}`);

export const text = (record: Json, key: string, at: string): string | Invalid => {
  const value = record[key];
  return typeof value === "string" ? value : expected(`${at}.${key}`, "a string", value);
};

export const textOrNull = (record: Json, key: string, at: string): string | null | Invalid => {
  const value = record[key];
  return typeof value === "string" || value === null ? value : expected(`${at}.${key}`, "a string or null", value);
};

const MAX_DATE_MS = 8.64e15;

/** `ms` as an ISO 8601 date, or why it cannot be one (`key` names the field). */
export const isoOf = (ms: number, key: string): string | Invalid =>
  Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS ? new Date(ms).toISOString() : expected(key, "a date in milliseconds", ms);
