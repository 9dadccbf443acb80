/**
 * Small hand-written validators for configuration values: each takes an unknown JSON value and
 * answers the typed value or the problem, with the path of the key that has it.
 */
import { err, ok, type Result } from "neverthrow";

/** What is wrong with a value, and under which key (outermost first). */
export type Problem = { readonly path: readonly string[]; readonly message: string };

/** Checks one JSON value. */
export type Validator<T> = (value: unknown) => Result<T, Problem>;

/** A value as it should be shown in a message: JSON, shortened. */
export const show = (value: unknown): string => {
  const text = value === undefined ? "nothing" : JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

const problem = (expected: string, value: unknown): Problem => ({ path: [], message: `expected ${expected}, got ${show(value)}` });

const check =
  <T>(expected: string, test: (value: unknown) => value is T): Validator<T> =>
  (value) =>
    test(value) ? ok(value) : err(problem(expected, value));

/** Any string with at least one non-blank character. */
export const nonEmptyString: Validator<string> = check(
  "a non-empty string",
  (value): value is string => typeof value === "string" && value.trim() !== "",
);

/** true or false. */
export const boolean: Validator<boolean> = check("true or false", (value): value is boolean => typeof value === "boolean");

/** A whole number above zero. */
export const positiveInteger: Validator<number> = check(
  "a positive integer",
  (value): value is number => Number.isSafeInteger(value) && (value as number) > 0,
);

/** A whole number, zero or more. */
export const nonNegativeInteger: Validator<number> = check(
  "an integer >= 0",
  (value): value is number => Number.isSafeInteger(value) && (value as number) >= 0,
);

/** A finite number above zero. */
export const positiveNumber: Validator<number> = check(
  "a positive number",
  (value): value is number => typeof value === "number" && Number.isFinite(value) && value > 0,
);

/** One of the given strings. */
export const oneOf = <T extends string>(...choices: readonly T[]): Validator<T> =>
  check(choices.map((choice) => JSON.stringify(choice)).join(" or "), (value): value is T =>
    choices.some((choice) => choice === value),
  );

/** An absolute http(s) URL. */
export const httpUrl: Validator<string> = check("an http(s) URL", (value): value is string => {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
});

/** A name usable as an environment variable. */
export const envVarName: Validator<string> = check(
  "an environment variable name",
  (value): value is string => typeof value === "string" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value),
);

/** An array whose every item passes `item`. */
export const arrayOf =
  <T>(item: Validator<T>): Validator<readonly T[]> =>
  (value) => {
    if (!Array.isArray(value)) return err(problem("an array", value));
    const items: T[] = [];
    for (const [index, element] of value.entries()) {
      const checked = item(element);
      if (checked.isErr()) return err({ ...checked.error, path: [`${index}`, ...checked.error.path] });
      items.push(checked.value);
    }
    return ok(items);
  };

/** The validators of an object's keys, one per key of `T`. */
export type Fields<T> = { readonly [K in keyof T]-?: Validator<T[K]> };

/** Explanations for keys that are unknown but commonly tried, keyed by name. */
export type Hints = Readonly<Record<string, string>>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * An object holding only the keys of `fields`, each optional and checked by its validator. Unknown
 * keys are problems (explained by `hints` when one matches).
 */
export const objectOf =
  <T>(fields: Fields<T>, hints: Hints = {}): Validator<Partial<T>> =>
  (value) => {
    if (!isPlainObject(value)) return err(problem("an object", value));
    const result: Partial<T> = {};
    for (const [key, field] of Object.entries(value)) {
      if (!Object.hasOwn(fields, key)) {
        const hint = hints[key];
        return err({ path: [key], message: hint === undefined ? "unknown key" : `unknown key (${hint})` });
      }
      const checked = (fields[key as keyof T] as Validator<unknown>)(field);
      if (checked.isErr()) return err({ ...checked.error, path: [key, ...checked.error.path] });
      Object.assign(result, { [key]: checked.value });
    }
    return ok(result);
  };
