/**
 * What `mm-acp --setup` writes, as pure functions: the three answers (base URL, model, the NAME of the
 * key variable), each checked by the config file's own rules, and the config document they go into,
 * keeping every other key of an existing file.
 */
import { DEFAULT_MODEL, formatKeyPath, validateFileConfig } from "../config/index.js";
import { err, ok, type Result } from "neverthrow";

/** The settings the setup asks for. */
export type SetupAnswers = { readonly baseURL: string; readonly name: string; readonly apiKeyEnv: string };

/** One question: the key it sets in `model`, how it is asked, and a hint shown before it. */
export type SetupQuestion = { readonly key: keyof SetupAnswers; readonly label: string; readonly hint?: string };

/** In the order asked: the server, the variable of its key, then (once the server was asked with that key) the model. */
export const QUESTIONS: readonly SetupQuestion[] = [
  {
    key: "baseURL",
    label: "Model server base URL",
    hint: "OpenAI https://api.openai.com/v1 · Ollama http://127.0.0.1:11434/v1 · LM Studio http://127.0.0.1:1234/v1 · any OpenAI-compatible server",
  },
  {
    key: "apiKeyEnv",
    label: "Name of the environment variable holding the API key",
    hint: "Its NAME, not the key: mm reads the key from that variable when it starts (a local server without keys needs none: keep the default)",
  },
  { key: "name", label: "Model" },
];

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** An existing config file, as far as the setup cares: absent, a JSON object to update, or something to replace. */
export type ExistingFile =
  | { readonly kind: "none" }
  | { readonly kind: "object"; readonly document: JsonObject }
  | { readonly kind: "other"; readonly reason: string };

/** The existing file's text, classified. */
export const existingFileOf = (text: string | undefined): ExistingFile => {
  if (text === undefined) return { kind: "none" };
  try {
    const document: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
    return isObject(document) ? { kind: "object", document } : { kind: "other", reason: "it is not a JSON object" };
  } catch {
    return { kind: "other", reason: "it is not valid JSON" };
  }
};

/** The existing file's own model settings (strings only), without mm's defaults. */
export const fileAnswers = (existing: ExistingFile): Partial<SetupAnswers> => {
  const model = existing.kind === "object" && isObject(existing.document.model) ? existing.document.model : {};
  const keys = ["baseURL", "name", "apiKeyEnv"] as const;
  return Object.fromEntries(keys.flatMap((key) => (typeof model[key] === "string" && model[key].trim() !== "" ? [[key, model[key]]] : [])));
};

/** The answers offered as defaults: the existing file's values, else mm's defaults. */
export const defaultAnswers = (existing: ExistingFile): SetupAnswers => ({
  baseURL: DEFAULT_MODEL.baseURL,
  name: DEFAULT_MODEL.name,
  apiKeyEnv: DEFAULT_MODEL.apiKeyEnv,
  ...fileAnswers(existing),
});

/** A value that is a key rather than the name of a variable: a known key prefix, or a long random-looking token. */
export const looksLikeKey = (value: string): boolean =>
  /^(sk|gsk|xai|hf|pk|rk|ghp|github_pat|AIza)[-_]/i.test(value) || (value.length >= 30 && /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value));

/** Checks one answer as the config file would (`model.<key>`); refuses a key given where its variable's name belongs. */
export const checkAnswer = (key: keyof SetupAnswers, value: string): Result<string, string> => {
  if (key === "apiKeyEnv" && looksLikeKey(value)) return err("that looks like a key itself: give the NAME of the variable holding it (e.g. OPENAI_API_KEY)");
  return validateFileConfig({ model: { [key]: value } })
    .map(() => value)
    .mapErr((problem) =>
      // Never repeated back for the key's variable: what was typed there may be a key.
      key === "apiKeyEnv" ? "expected the name of an environment variable (letters, digits and _, not starting with a digit)" : problem.message,
    );
};

/**
 * The document to write: the existing object (when there is one) with its `model` section updated,
 * else a new one. Fails with the config loader's own message when the result would not load.
 */
export const documentWith = (existing: ExistingFile, answers: SetupAnswers): Result<JsonObject, string> => {
  const base = existing.kind === "object" ? existing.document : {};
  const model = isObject(base.model) ? base.model : {};
  const document = { ...base, model: { ...model, baseURL: answers.baseURL, name: answers.name, apiKeyEnv: answers.apiKeyEnv } };
  return validateFileConfig(document).match(
    () => ok(document),
    (problem) => err(`${formatKeyPath(problem.path)}: ${problem.message}`),
  );
};
