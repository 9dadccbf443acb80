/**
 * `mm-acp --setup`: asks for the model server, the model and the name of the key variable, and writes
 * them to the user's config file (`$XDG_CONFIG_HOME/mm/config.json`, default ~/.config/mm/config.json).
 * Never asks for or writes the key. An existing file is only changed after a yes. Exit code 0 once
 * written (what a client running it as a terminal auth method takes as success), 1 otherwise.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Readable } from "node:stream";
import { findConfigFile, userConfigPath } from "../config/index.js";
import { linePrompter, type Prompter } from "./line-prompter.js";
import { checkAnswer, defaultAnswers, documentWith, existingFileOf, QUESTIONS, type ExistingFile, type SetupAnswers } from "./setup-document.js";

export type SetupIo = {
  readonly input: Readable;
  /** Where prompts and messages go: stderr (stdout stays for the protocol, even here). */
  readonly write: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly cwd: string;
  /** Whether the input is a terminal (answers piped in are echoed into the transcript). */
  readonly interactive: boolean;
};

const readOptional = (path: string): string | undefined => {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
};

const writeAtomically = (path: string, text: string): void => {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text, { mode: 0o600 });
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
};

const mayChange = async (prompt: Prompter, path: string, existing: ExistingFile): Promise<boolean | undefined> => {
  if (existing.kind === "none") return true;
  if (existing.kind === "object") return prompt.confirm(`${path} exists. Update its model settings (its other keys are kept)?`);
  return prompt.confirm(`${path} exists but ${existing.reason}. Replace it?`);
};

const askAll = async (prompt: Prompter, defaults: SetupAnswers): Promise<SetupAnswers | undefined> => {
  const answers: Partial<Record<keyof SetupAnswers, string>> = {};
  for (const question of QUESTIONS) {
    if (question.hint !== undefined) prompt.say(`  ${question.hint}`);
    const answer = await prompt.ask(question.label, defaults[question.key], (value) => checkAnswer(question.key, value));
    if (answer === undefined) return undefined;
    answers[question.key] = answer;
  }
  return answers as SetupAnswers;
};

/** What to tell the user once written: where the key comes from, and what would hide this file. */
const afterwords = (io: SetupIo, path: string, answers: SetupAnswers): string[] => {
  const keySet = (io.env[answers.apiKeyEnv] ?? "") !== "";
  const lines = [
    `mm-acp: wrote ${path}: model ${answers.name} at ${answers.baseURL}, key read from $${answers.apiKeyEnv}`,
    keySet
      ? `mm-acp: $${answers.apiKeyEnv} is set in this shell`
      : `mm-acp: $${answers.apiKeyEnv} is not set in this shell: set it where your editor starts mm-acp (a server without keys needs none)`,
  ];
  const used = findConfigFile({ argv: [], env: io.env, cwd: io.cwd, home: io.home });
  if (used.isOk() && used.value !== null && used.value.path !== path) lines.push(`mm-acp: note: ${used.value.path} is read before it when mm-acp starts here`);
  const overrides = ["MM_MODEL", "MM_BASE_URL", "OPENAI_BASE_URL"].filter((name) => (io.env[name] ?? "") !== "");
  if (overrides.length > 0) lines.push(`mm-acp: note: ${overrides.join(", ")} set in the environment win over the file`);
  return lines;
};

/** Runs the setup; resolves to the exit code. */
export const runSetup = async (io: SetupIo): Promise<number> => {
  const path = userConfigPath(io.env, io.home);
  const prompt = linePrompter(io.input, io.write, { echo: !io.interactive });
  const stop = (line: string): number => {
    prompt.say(line);
    return 1;
  };
  try {
    prompt.say(`mm-acp setup: writes ${path}. The API key itself is never asked for nor written.`);
    const existing = existingFileOf(readOptional(path));
    const allowed = await mayChange(prompt, path, existing);
    if (allowed !== true) return stop(`mm-acp: ${path} left unchanged`);
    const answers = await askAll(prompt, defaultAnswers(existing));
    if (answers === undefined) return stop("mm-acp: setup cancelled (end of input): nothing written");
    const document = documentWith(existing, answers);
    if (document.isErr()) return stop(`mm-acp: ${path}: ${document.error}: fix or remove the file, then run mm-acp --setup again`);
    writeAtomically(path, `${JSON.stringify(document.value, null, 2)}\n`);
    for (const line of afterwords(io, path, answers)) prompt.say(line);
    return 0;
  } catch (error) {
    return stop(`mm-acp: setup failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    prompt.close();
  }
};
