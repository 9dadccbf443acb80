/**
 * Object schemas: named fields, each required or `optional`, checked in order; the TypeScript type
 * follows (optional fields may be absent, never `undefined`).
 */
import { err, ok } from "neverthrow";
import { under, type Infer, type JsonSchema, type Schema } from "./schema.js";

/** The fields of an object schema. */
export type Shape = { readonly [key: string]: Schema<unknown> };

type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends { readonly optional: true } ? K : never }[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The value an object schema of `S` checks. */
export type ObjectOf<S extends Shape> = Flat<
  { readonly [K in RequiredKeys<S>]: Infer<S[K]> } & { readonly [K in OptionalKeys<S>]?: Exclude<Infer<S[K]>, undefined> }
>;

/** How an object schema treats unknown keys and nulls. */
export type ObjectOptions = {
  readonly description?: string;
  /**
   * `reject`: a key not in the shape is a problem (configuration); `ignore` (default): it is dropped
   * (tool inputs, which models pad with extra keys). The JSON Schema says `additionalProperties: false` either way.
   */
  readonly unknownKeys?: "reject" | "ignore";
  /** Explanations for unknown keys that are commonly tried, keyed by name. */
  readonly hints?: Readonly<Record<string, string>>;
  /** A `null` optional field counts as absent (models send `null` for "not given"). */
  readonly nullMeansAbsent?: boolean;
};

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** An object with the fields of `shape`. */
export const object = <S extends Shape>(shape: S, options: ObjectOptions = {}): Schema<ObjectOf<S>> => {
  const keys = Object.keys(shape);
  const required = keys.filter((key) => shape[key]!.optional !== true);
  const jsonSchema: JsonSchema = {
    type: "object",
    ...(options.description !== undefined ? { description: options.description } : {}),
    properties: Object.fromEntries(keys.map((key) => [key, shape[key]!.jsonSchema])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
  return {
    jsonSchema,
    check: (value) => {
      if (!isPlainObject(value)) return err({ kind: "type", path: [], expected: "an object", value });
      if (options.unknownKeys === "reject") {
        const unknown = Object.keys(value).find((key) => !Object.hasOwn(shape, key));
        if (unknown !== undefined) {
          const hint = options.hints?.[unknown];
          return err({ kind: "unknown-key", path: [unknown], ...(hint !== undefined ? { hint } : {}) });
        }
      }
      const result: Record<string, unknown> = {};
      for (const key of keys) {
        const field = shape[key]!;
        const given = Object.hasOwn(value, key) ? value[key] : undefined;
        const raw = given === null && field.optional === true && options.nullMeansAbsent === true ? undefined : given;
        const checked = field.check(raw);
        if (checked.isErr()) return err(under(key, checked.error));
        if (checked.value !== undefined) result[key] = checked.value;
      }
      return ok(result as ObjectOf<S>);
    },
  };
};
