/** Small validators for tool inputs: the model's JSON is untrusted. */
import { err, ok, type Result } from "neverthrow";

type Fields = Record<string, unknown>;

export const asObject = (input: unknown): Result<Fields, string> =>
  typeof input === "object" && input !== null && !Array.isArray(input)
    ? ok(input as Fields)
    : err("input must be a JSON object");

export const requiredString = (fields: Fields, key: string): Result<string, string> =>
  typeof fields[key] === "string" ? ok(fields[key] as string) : err(`"${key}" must be a string`);

export const optionalNumber = (fields: Fields, key: string): Result<number | undefined, string> => {
  const value = fields[key];
  if (value === undefined || value === null) return ok(undefined);
  return typeof value === "number" && Number.isFinite(value) && value >= 0
    ? ok(value)
    : err(`"${key}" must be a non-negative number`);
};

export const optionalBoolean = (fields: Fields, key: string): Result<boolean | undefined, string> => {
  const value = fields[key];
  if (value === undefined || value === null) return ok(undefined);
  return typeof value === "boolean" ? ok(value) : err(`"${key}" must be a boolean`);
};
