/**
 * The environment's say: `MM_MODEL`, `MM_BASE_URL` (else `OPENAI_BASE_URL`), the key from the variable
 * named by `model.apiKeyEnv`, and `MM_ACP_SURFACE`. Set variables win over the file; empty ones count as unset.
 */
import { ok, type Result } from "neverthrow";
import type { AcpSurface, ConfigError } from "./config-types.js";
import { problemText, type Schema } from "@mm/core";
import { httpUrl, nonEmptyString, oneOf } from "./config-validators.js";

/** What the environment sets; undefined members leave the file's or the default value. */
export type EnvOverrides = {
  readonly name: string | undefined;
  readonly baseURL: string | undefined;
  readonly apiKey: string | undefined;
  readonly surface: AcpSurface | undefined;
};

type Env = Readonly<Record<string, string | undefined>>;

const envValue = (env: Env, name: string): string | undefined => {
  const value = env[name];
  return value === undefined || value === "" ? undefined : value;
};

const checked = <T extends string>(env: Env, name: string, schema: Schema<T>): Result<T | undefined, ConfigError> => {
  const value = envValue(env, name);
  if (value === undefined) return ok(undefined);
  return schema.check(value).mapErr((problem) => ({ kind: "invalid-value" as const, message: `mm-acp: ${name}: ${problemText(problem)}` }));
};

/** The overrides found in `env`, the key read from `apiKeyEnv`; a malformed value names its variable. */
export const envOverrides = (env: Env, apiKeyEnv: string): Result<EnvOverrides, ConfigError> => {
  const baseUrlVariable = envValue(env, "MM_BASE_URL") !== undefined ? "MM_BASE_URL" : "OPENAI_BASE_URL";
  return checked(env, "MM_MODEL", nonEmptyString).andThen((name) =>
    checked(env, baseUrlVariable, httpUrl).andThen((baseURL) =>
      checked(env, "MM_ACP_SURFACE", oneOf<AcpSurface>(["spec", "full"])).map((surface) => ({
        name,
        baseURL,
        apiKey: envValue(env, apiKeyEnv),
        surface,
      })),
    ),
  );
};
