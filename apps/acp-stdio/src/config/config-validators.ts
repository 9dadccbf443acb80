/**
 * The value kinds of mm's configuration, as @mm/core schemas (the same schemas that check tool
 * inputs): each yields the JSON Schema, the check with the path of the key at fault, and the type.
 */
import { array, boolean, oneOf, refined, string, type Schema } from "@mm/core";
import { err } from "neverthrow";

/** Any string with at least one non-blank character. */
export const nonEmptyString: Schema<string> = string({ nonEmpty: true });

/** true or false. */
export const trueOrFalse: Schema<boolean> = boolean();

/** An XML-like tag name (`think`), or empty. */
export const tagName: Schema<string> = refined(
  'a tag name such as "think", or "" for none',
  { type: "string", pattern: "^([A-Za-z][A-Za-z0-9_-]*)?$" },
  (value): value is string => typeof value === "string" && /^([A-Za-z][A-Za-z0-9_-]*)?$/.test(value),
);

/** One of the given strings. */
export { oneOf };

/** An absolute http(s) URL. */
export const httpUrl: Schema<string> = refined("an http(s) URL", { type: "string", format: "uri" }, (value): value is string => {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
});

/** A path taken as it is written: a pattern's `*`, `?` or `[` refused (it would name a file of that literal name). */
export const literalPath: Schema<string> = refined(
  "a path, not a pattern (no *, ? or [): list each path",
  { type: "string", pattern: "^[^*?\\[]*\\S[^*?\\[]*$" },
  (value): value is string => typeof value === "string" && value.trim() !== "" && !/[*?[]/.test(value),
);

/** A name usable as an environment variable. */
export const envVarName: Schema<string> = refined(
  "an environment variable name",
  { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
  (value): value is string => typeof value === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value),
);

/**
 * A whole number from `min` (0 or 1) to `max`: every limit of the file has an upper bound, so no file
 * (a project's above all) can lift a limit past what mm can hold (a `tools.maxOutputBytes` of 1e12
 * took the agent to gigabytes).
 */
export const integerUpTo = (min: 0 | 1, max: number): Schema<number> =>
  refined(
    `an integer from ${min} to ${max}`,
    { type: "integer", minimum: min, maximum: max },
    (value): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= min && value <= max,
  );

/** A finite number above zero, at most `max`. */
export const positiveNumberUpTo = (max: number): Schema<number> =>
  refined(
    `a number above 0, at most ${max}`,
    { type: "number", exclusiveMinimum: 0, maximum: max },
    (value): value is number => typeof value === "number" && Number.isFinite(value) && value > 0 && value <= max,
  );

/** A number from 0 to `max` (a price). */
export const numberFromZeroUpTo = (max: number): Schema<number> =>
  refined(
    `a number from 0 to ${max}`,
    { type: "number", minimum: 0, maximum: max },
    (value): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= max,
  );

/**
 * A list of at most `max` entries, each checked by `item`: no file can make one as long as it likes
 * (every hidden path is resolved before each command and becomes one of bubblewrap's arguments).
 */
export const listOf = <T>(item: Schema<T>, max: number): Schema<readonly T[]> => {
  const inner = array(item);
  return {
    jsonSchema: { ...inner.jsonSchema, maxItems: max },
    check: (value) =>
      Array.isArray(value) && value.length > max ? err({ kind: "type", path: [], expected: `an array of at most ${max} entries`, value }) : inner.check(value),
  };
};
