/**
 * The environment's say over the model: `MM_MODEL`, `MM_BASE_URL` (else `OPENAI_BASE_URL`) and the
 * key from the variable named by `model.apiKeyEnv`. Set variables win over the file; empty ones count as unset.
 */
import { ok, type Result } from "neverthrow";
import type { ConfigError } from "./config-types.js";
import { httpUrl, nonEmptyString, type Validator } from "./config-validators.js";

/** What the environment sets; undefined members leave the file's or the default value. */
export type EnvOverrides = {
  readonly name: string | undefined;
  readonly baseURL: string | undefined;
  readonly apiKey: string | undefined;
};

type Env = Readonly<Record<string, string | undefined>>;

const valueOf = (env: Env, name: string): string | undefined => {
  const value = env[name];
  return value === undefined || value === "" ? undefined : value;
};

const checked = (env: Env, name: string, validator: Validator<string>): Result<string | undefined, ConfigError> => {
  const value = valueOf(env, name);
  if (value === undefined) return ok(undefined);
  return validator(value).mapErr((problem) => ({ kind: "invalid-value" as const, message: `mm: ${name}: ${problem.message}` }));
};

/** The overrides found in `env`, the key read from `apiKeyEnv`; a malformed value names its variable. */
export const envOverrides = (env: Env, apiKeyEnv: string): Result<EnvOverrides, ConfigError> => {
  const baseUrlVariable = valueOf(env, "MM_BASE_URL") !== undefined ? "MM_BASE_URL" : "OPENAI_BASE_URL";
  return checked(env, "MM_MODEL", nonEmptyString).andThen((name) =>
    checked(env, baseUrlVariable, httpUrl).map((baseURL) => ({ name, baseURL, apiKey: valueOf(env, apiKeyEnv) })),
  );
};
