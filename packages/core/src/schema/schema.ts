/**
 * One way to describe a JSON value: a schema yields the JSON Schema shown to a model or an editor, the
 * check that turns untrusted JSON into a typed value (or the problem, with the path of the key that
 * has it), and the TypeScript type (`Infer`). Tool inputs and mm's configuration both use it.
 */
import { err, ok, type Result } from "neverthrow";

/** A JSON Schema document, as sent to a model. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** What is wrong with a value and under which key (outermost first; array indices as digits). */
export type Problem =
  | { readonly kind: "type"; readonly path: readonly string[]; readonly expected: string; readonly value: unknown }
  | { readonly kind: "unknown-key"; readonly path: readonly string[]; readonly hint?: string };

/** A described JSON value of type `T`. */
export type Schema<T> = {
  readonly jsonSchema: JsonSchema;
  /** The typed value, or the first problem found. Never throws. */
  readonly check: (value: unknown) => Result<T, Problem>;
  /** Marks an object field that may be absent (see {@link optional}). */
  readonly optional?: true;
};

/** The TypeScript type a schema checks. */
export type Infer<S> = S extends Schema<infer T> ? T : never;

/** A problem found in `value` one level down, under `key`. */
export const under = (key: string, problem: Problem): Problem => ({ ...problem, path: [key, ...problem.path] });

/**
 * A schema of values passing `test`; `expected` names them in messages ("a positive integer").
 * `jsonSchema` is what a model is shown.
 */
export const refined = <T>(expected: string, jsonSchema: JsonSchema, test: (value: unknown) => value is T): Schema<T> => ({
  jsonSchema,
  check: (value) => (test(value) ? ok(value) : err({ kind: "type", path: [], expected, value })),
});

const withDescription = (schema: JsonSchema, description: string | undefined): JsonSchema => (description === undefined ? schema : { ...schema, description });

/** Any string (`nonEmpty`: with at least one non-blank character). */
export const string = (options: { readonly description?: string; readonly nonEmpty?: boolean } = {}): Schema<string> =>
  options.nonEmpty === true
    ? refined(
        "a non-empty string",
        withDescription({ type: "string", minLength: 1 }, options.description),
        (v): v is string => typeof v === "string" && v.trim() !== "",
      )
    : refined("a string", withDescription({ type: "string" }, options.description), (v): v is string => typeof v === "string");

/** true or false. */
export const boolean = (options: { readonly description?: string } = {}): Schema<boolean> =>
  refined("true or false", withDescription({ type: "boolean" }, options.description), (v): v is boolean => typeof v === "boolean");

type NumberOptions = { readonly description?: string; readonly integer?: boolean; readonly min?: 0; readonly positive?: boolean };

const numberExpected = (o: NumberOptions): string => {
  if (o.integer === true) return o.positive === true ? "a positive integer" : o.min === 0 ? "an integer >= 0" : "an integer";
  return o.positive === true ? "a positive number" : o.min === 0 ? "a non-negative number" : "a number";
};

/** A finite number; `integer`, `positive` (> 0) and `min: 0` (>= 0) narrow it. */
export const number = (options: NumberOptions = {}): Schema<number> => {
  const jsonSchema: JsonSchema = {
    type: options.integer === true ? "integer" : "number",
    ...(options.positive === true ? { exclusiveMinimum: 0 } : options.min === 0 ? { minimum: 0 } : {}),
  };
  return refined(numberExpected(options), withDescription(jsonSchema, options.description), (v): v is number => {
    if (typeof v !== "number" || !Number.isFinite(v)) return false;
    if (options.integer === true && !Number.isSafeInteger(v)) return false;
    return options.positive === true ? v > 0 : options.min === 0 ? v >= 0 : true;
  });
};

/** One of the given strings. */
export const oneOf = <const T extends string>(choices: readonly T[], options: { readonly description?: string } = {}): Schema<T> =>
  refined(choices.map((c) => JSON.stringify(c)).join(" or "), withDescription({ type: "string", enum: [...choices] }, options.description), (v): v is T =>
    choices.some((c) => c === v),
  );

/** An array whose every item passes `item`. */
export const array = <T>(item: Schema<T>, options: { readonly description?: string } = {}): Schema<readonly T[]> => ({
  jsonSchema: withDescription({ type: "array", items: item.jsonSchema }, options.description),
  check: (value) => {
    if (!Array.isArray(value)) return err({ kind: "type", path: [], expected: "an array", value });
    const items: T[] = [];
    for (const [index, element] of value.entries()) {
      const checked = item.check(element);
      if (checked.isErr()) return err(under(`${index}`, checked.error));
      items.push(checked.value);
    }
    return ok(items);
  },
});

/**
 * Any JSON object, described to the model by `jsonSchema` and checked no further here (a tool whose
 * server validates its own input, e.g. an MCP tool); an absent input counts as `{}`.
 */
export const anyObject = (jsonSchema: JsonSchema): Schema<Readonly<Record<string, unknown>>> => ({
  jsonSchema,
  check: (value) =>
    value === undefined || value === null
      ? ok({})
      : typeof value === "object" && !Array.isArray(value)
        ? ok(value as Readonly<Record<string, unknown>>)
        : err({ kind: "type", path: [], expected: "an object", value }),
});

/** `schema`, as an object field that may be absent. */
export const optional = <T>(schema: Schema<T>): Schema<T | undefined> & { readonly optional: true } => ({
  jsonSchema: schema.jsonSchema,
  check: (value) => (value === undefined ? ok(undefined) : schema.check(value)),
  optional: true,
});

/** A schema whose checked value is then transformed (e.g. a path expanded); the JSON Schema is kept. */
export const mapped = <A, B>(schema: Schema<A>, f: (value: A) => B): Schema<B> => ({
  jsonSchema: schema.jsonSchema,
  check: (value) => schema.check(value).map(f),
  ...(schema.optional === true ? { optional: true as const } : {}),
});
