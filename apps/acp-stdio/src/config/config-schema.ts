/**
 * The keys a config file may hold and the type each must have. A file sets any subset; unknown keys
 * and wrong types are refused with the path of the key.
 */
import { CHAT_PROVIDERS } from "@mm/ai-model";
import { formatKeyPath, object, optional, problemText, type Infer, type Problem as CoreProblem } from "@mm/core";
import type { Result } from "neverthrow";
import { closestName } from "./did-you-mean.js";
import { LIMIT_MAX } from "./config-limits.js";
import {
  envVarName,
  httpUrl,
  integerUpTo,
  listOf,
  literalPath,
  nonEmptyString,
  numberFromZeroUpTo,
  oneOf,
  positiveNumberUpTo,
  tagName,
  trueOrFalse,
} from "./config-validators.js";

/** What is wrong with a config document, and under which key (outermost first). */
export type Problem = { readonly path: readonly string[]; readonly message: string };

const KEYS_NOT_IN_FILES = "keys are never read from the file: set the variable named by model.apiKeyEnv";

const section = <S extends Parameters<typeof object>[0]>(shape: S, hints?: Readonly<Record<string, string>>) =>
  optional(object(shape, { unknownKeys: "reject", ...(hints !== undefined ? { hints } : {}) }));

const dirs = optional(listOf(nonEmptyString, LIMIT_MAX.listEntries));

/** The config file: every section and key optional; unknown keys refused. */
export const configFileSchema = object(
  {
    model: section(
      {
        name: optional(nonEmptyString),
        baseURL: optional(httpUrl),
        apiKeyEnv: optional(envVarName),
        api: optional(oneOf(["chat", "responses"])),
        provider: optional(oneOf(CHAT_PROVIDERS)),
        contextWindow: optional(integerUpTo(1, LIMIT_MAX.contextWindow)),
        choices: optional(listOf(nonEmptyString, LIMIT_MAX.listEntries)),
        vision: optional(trueOrFalse),
        reasoningTag: optional(tagName),
        reasoning: optional(trueOrFalse),
        pricing: section({
          input: numberFromZeroUpTo(LIMIT_MAX.price),
          cachedInput: optional(numberFromZeroUpTo(LIMIT_MAX.price)),
          output: numberFromZeroUpTo(LIMIT_MAX.price),
        }),
      },
      { apiKey: KEYS_NOT_IN_FILES, key: KEYS_NOT_IN_FILES },
    ),
    sessions: section({ enabled: optional(trueOrFalse), dir: optional(nonEmptyString) }),
    context: section({ threshold: optional(integerUpTo(1, LIMIT_MAX.threshold)), keepLastTurns: optional(integerUpTo(0, LIMIT_MAX.keepLastTurns)) }),
    skills: section({ dirs }),
    tools: section({
      bashTimeoutSeconds: optional(positiveNumberUpTo(LIMIT_MAX.bashTimeoutSeconds)),
      maxOutputBytes: optional(integerUpTo(1, LIMIT_MAX.maxOutputBytes)),
      maxImageBytes: optional(integerUpTo(0, LIMIT_MAX.maxImageBytes)),
      maxSessionImageBytes: optional(integerUpTo(0, LIMIT_MAX.maxSessionImageBytes)),
      sandbox: optional(oneOf(["off", "workspace"])),
      writable: dirs,
      network: optional(trueOrFalse),
      hidden: optional(listOf(literalPath, LIMIT_MAX.listEntries)),
      hiddenEnv: optional(listOf(envVarName, LIMIT_MAX.listEntries)),
    }),
    turn: section({ maxSteps: optional(integerUpTo(1, LIMIT_MAX.maxSteps)) }),
    loop: section({ repeats: optional(integerUpTo(1, LIMIT_MAX.repeats)) }),
    acp: section({ surface: optional(oneOf(["spec", "full"])) }),
    /** Permission rules (the full surface): rule words (`npm test`), or `edits` / `reads` for the file tools. */
    permissions: section({
      allow: optional(listOf(nonEmptyString, LIMIT_MAX.listEntries)),
      ask: optional(listOf(nonEmptyString, LIMIT_MAX.listEntries)),
      deny: optional(listOf(nonEmptyString, LIMIT_MAX.listEntries)),
    }),
    /** Read from the user's own file only: projects whose `.mm/config.json` may set every key. */
    projects: section({ trusted: optional(listOf(nonEmptyString, LIMIT_MAX.listEntries)) }),
    /** A JSON Schema reference for editors; ignored. */
    $schema: optional(nonEmptyString),
  },
  { unknownKeys: "reject" },
);

/** What a config file may set: every section and key optional, values as written. */
export type FileConfig = Infer<typeof configFileSchema>;

/** The keys the file may hold beside the one at `path` (those of its section). */
const siblingKeys = (path: readonly string[]): readonly string[] => {
  let schema: Readonly<Record<string, unknown>> | undefined = configFileSchema.jsonSchema;
  for (const part of path.slice(0, -1)) {
    const properties = schema?.properties as Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
    schema = properties?.[part];
  }
  return Object.keys((schema?.properties as object | undefined) ?? {});
};

/** An unknown key without a hint of its own gets the nearest known one: `(did you mean model.baseURL?)`. */
const withSuggestion = (problem: CoreProblem): CoreProblem => {
  if (problem.kind !== "unknown-key" || problem.hint !== undefined) return problem;
  const typed = problem.path.at(-1);
  const meant = typed === undefined ? undefined : closestName(typed, siblingKeys(problem.path));
  return meant === undefined ? problem : { ...problem, hint: `did you mean ${formatKeyPath([...problem.path.slice(0, -1), meant])}?` };
};

/** Checks a parsed config document; the problem's path names the offending key. */
export const validateFileConfig = (document: unknown): Result<FileConfig, Problem> =>
  configFileSchema.check(document).mapErr((problem) => ({ path: problem.path, message: problemText(withSuggestion(problem)) }));

export { formatKeyPath };
