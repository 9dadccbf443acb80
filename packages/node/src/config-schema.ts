/**
 * The keys a config file may hold and the type each must have. A file sets any subset; unknown keys
 * and wrong types are refused with the path of the key.
 */
import type { Result } from "neverthrow";
import type { MmConfig } from "./config-types.js";
import {
  arrayOf,
  boolean,
  envVarName,
  httpUrl,
  nonEmptyString,
  nonNegativeInteger,
  objectOf,
  oneOf,
  positiveInteger,
  positiveNumber,
  type Fields,
  type Problem,
  type Validator,
} from "./config-validators.js";

type Settable<Section> = Partial<Section>;

/** What a config file may set: every section and key optional, values as written. */
export type FileConfig = {
  readonly model?: Settable<Omit<MmConfig["model"], "apiKey">>;
  readonly sessions?: Settable<MmConfig["sessions"]>;
  readonly context?: Settable<MmConfig["context"]>;
  readonly skills?: Settable<MmConfig["skills"]>;
  readonly tools?: Settable<MmConfig["tools"]>;
  readonly turn?: Settable<MmConfig["turn"]>;
  readonly loop?: Settable<MmConfig["loop"]>;
  readonly acp?: Settable<MmConfig["acp"]>;
  /** A JSON Schema reference for editors; ignored. */
  readonly $schema?: string;
};

const model = objectOf<Omit<MmConfig["model"], "apiKey">>(
  {
    name: nonEmptyString,
    baseURL: httpUrl,
    apiKeyEnv: envVarName,
    api: oneOf("chat", "responses"),
    contextWindow: positiveInteger,
  },
  {
    apiKey: "keys are never read from the file: set the variable named by model.apiKeyEnv",
    key: "keys are never read from the file: set the variable named by model.apiKeyEnv",
  },
);

const fileFields: Fields<FileConfig> = {
  model,
  sessions: objectOf<MmConfig["sessions"]>({ enabled: boolean, dir: nonEmptyString }),
  context: objectOf<MmConfig["context"]>({ threshold: positiveInteger, keepLastTurns: nonNegativeInteger }),
  skills: objectOf<MmConfig["skills"]>({ dirs: arrayOf(nonEmptyString) }),
  tools: objectOf<MmConfig["tools"]>({
    bashTimeoutSeconds: positiveNumber,
    maxOutputBytes: positiveInteger,
    sandbox: oneOf("off", "workspace"),
    writable: arrayOf(nonEmptyString),
    network: boolean,
    hidden: arrayOf(nonEmptyString),
    hiddenEnv: arrayOf(envVarName),
  }),
  turn: objectOf<MmConfig["turn"]>({ maxSteps: positiveInteger }),
  loop: objectOf<MmConfig["loop"]>({ repeats: positiveInteger }),
  acp: objectOf<MmConfig["acp"]>({ surface: oneOf("spec", "full") }),
  $schema: nonEmptyString,
};

const fileConfig: Validator<Partial<FileConfig>> = objectOf(fileFields);

/** Checks a parsed config document; the problem's path names the offending key. */
export const validateFileConfig = (document: unknown): Result<FileConfig, Problem> => fileConfig(document);

/** A key path as written in messages: `model.contextWindow`, `skills.dirs[1]`. */
export const formatKeyPath = (path: readonly string[]): string =>
  path.reduce((text, part) => (/^\d+$/.test(part) ? `${text}[${part}]` : text === "" ? part : `${text}.${part}`), "");
