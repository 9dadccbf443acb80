/**
 * The value kinds of mm's configuration, as @mm/core schemas (the same schemas that check tool
 * inputs): each yields the JSON Schema, the check with the path of the key at fault, and the type.
 */
import { boolean, number, oneOf, refined, string, type Schema } from "@mm/core";

/** Any string with at least one non-blank character. */
export const nonEmptyString: Schema<string> = string({ nonEmpty: true });

/** true or false. */
export const trueOrFalse: Schema<boolean> = boolean();

/** A whole number above zero. */
export const positiveInteger: Schema<number> = number({ integer: true, positive: true });

/** A whole number, zero or more. */
export const nonNegativeInteger: Schema<number> = number({ integer: true, min: 0 });

/** A finite number above zero. */
export const positiveNumber: Schema<number> = number({ positive: true });

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

/** A name usable as an environment variable. */
export const envVarName: Schema<string> = refined(
  "an environment variable name",
  { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
  (value): value is string => typeof value === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value),
);
