/** The two ways mm words a schema {@link Problem}: for a model (tool input) and for a person (config). */
import type { Problem } from "./schema.js";

/** A key path as written in messages: `model.contextWindow`, `skills.dirs[1]`. */
export const formatKeyPath = (path: readonly string[]): string =>
  path.reduce((text, part) => (/^\d+$/.test(part) ? `${text}[${part}]` : text === "" ? part : `${text}.${part}`), "");

/** A value as a message shows it: JSON, shortened. */
export const showValue = (value: unknown): string => {
  const text = value === undefined ? "nothing" : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** For a model: `"command" must be a string`, `input must be an object`. */
export const inputProblemText = (problem: Problem): string => {
  const where = problem.path.length === 0 ? "input" : JSON.stringify(formatKeyPath(problem.path));
  return problem.kind === "type" ? `${where} must be ${problem.expected}` : `${where} is not a known field`;
};

/** For a person, after the key path: `expected a positive integer, got "abc"`, `unknown key (hint)`. */
export const problemText = (problem: Problem): string =>
  problem.kind === "type"
    ? `expected ${problem.expected}, got ${showValue(problem.value)}`
    : `unknown key${problem.hint !== undefined ? ` (${problem.hint})` : ""}`;
