/**
 * `mm-acp --setup`: asks for the model server and the name of the key variable, asks the server for
 * its models (`GET {baseURL}/models`, with the key when that variable is set, 5 s at most), says
 * whether it answered, offers its models for the model question, and writes the three to the user's
 * config file (`$XDG_CONFIG_HOME/mm/config.json`, default ~/.config/mm/config.json). Never asks for
 * or writes the key. An existing file is only changed after a yes. Exit code 0 once written (what a
 * client running it as a terminal auth method takes as success), 1 otherwise.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Readable } from "node:stream";
import { findConfigFile, userConfigPath } from "../config/index.js";
import { answerLines, askServer, modelsURL, type ServerAnswer } from "./ask-server.js";
import { linePrompter, type Prompter } from "./line-prompter.js";
import { defaultModel, modelAnswerCheck } from "./model-question.js";
import { checkAnswer, defaultAnswers, documentWith, existingFileOf, fileAnswers, QUESTIONS, type ExistingFile, type SetupAnswers } from "./setup-document.js";

export type SetupIo = {
  readonly input: Readable;
  /** Where prompts and messages go: stderr (stdout stays for the protocol, even here). */
  readonly write: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  readonly cwd: string;
  /** Whether the input is a terminal (answers piped in are echoed into the transcript). */
  readonly interactive: boolean;
  /** How the server is asked for its models; the global fetch when absent (tests pass their own). */
  readonly fetch?: typeof fetch;
  /** How long the server has to answer; 5 s when absent. */
  readonly timeoutMs?: number;
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

type Asked = { readonly answers: SetupAnswers; readonly server: ServerAnswer };

/** The server, the key's variable, what the server says with that key, then the model among those it lists. */
const askAll = async (prompt: Prompter, io: SetupIo, existing: ExistingFile): Promise<Asked | undefined> => {
  const defaults = defaultAnswers(existing);
  const ask = (key: keyof SetupAnswers, fallback: string, check: (value: string) => ReturnType<typeof checkAnswer>) => {
    const question = QUESTIONS.find((q) => q.key === key)!;
    if (question.hint !== undefined) prompt.say(`  ${question.hint}`);
    return prompt.ask(question.label, fallback, check);
  };
  const baseURL = await ask("baseURL", defaults.baseURL, (value) => checkAnswer("baseURL", value));
  if (baseURL === undefined) return undefined;
  const apiKeyEnv = await ask("apiKeyEnv", defaults.apiKeyEnv, (value) => checkAnswer("apiKeyEnv", value));
  if (apiKeyEnv === undefined) return undefined;
  const key = io.env[apiKeyEnv] || undefined;
  prompt.say(`mm-acp: asking the server: GET ${modelsURL(baseURL)}`);
  const server = await askServer({
    baseURL,
    apiKey: key,
    ...(io.fetch !== undefined ? { fetch: io.fetch } : {}),
    ...(io.timeoutMs !== undefined ? { timeoutMs: io.timeoutMs } : {}),
  });
  for (const line of answerLines(server, apiKeyEnv, key !== undefined)) prompt.say(line);
  const ids = server.kind === "models" ? server.ids : undefined;
  const name = await ask("name", defaultModel(ids, fileAnswers(existing).name, baseURL), modelAnswerCheck(ids));
  return name === undefined ? undefined : { answers: { baseURL, name, apiKeyEnv }, server };
};

/** Where the key comes from, given what the server said. */
const keyLine = (apiKeyEnv: string, keySet: boolean, server: ServerAnswer): string => {
  if (keySet) return `mm-acp: $${apiKeyEnv} is set in this shell`;
  if (server.kind === "models") return `mm-acp: the server answered without a key: none is needed ($${apiKeyEnv} is not set, which is fine)`;
  return `mm-acp: $${apiKeyEnv} is not set in this shell: set it where your editor starts mm-acp (a server without keys needs none)`;
};

/** What to tell the user once written: where the key comes from, and what would hide this file. */
const afterwords = (io: SetupIo, path: string, { answers, server }: Asked): string[] => {
  const keySet = (io.env[answers.apiKeyEnv] ?? "") !== "";
  const lines = [
    `mm-acp: wrote ${path}: model ${answers.name} at ${answers.baseURL}, key read from $${answers.apiKeyEnv}`,
    keyLine(answers.apiKeyEnv, keySet, server),
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
    const asked = await askAll(prompt, io, existing);
    if (asked === undefined) return stop("mm-acp: setup cancelled (end of input): nothing written");
    const document = documentWith(existing, asked.answers);
    if (document.isErr()) return stop(`mm-acp: ${path}: ${document.error}: fix or remove the file, then run mm-acp --setup again`);
    writeAtomically(path, `${JSON.stringify(document.value, null, 2)}\n`);
    for (const line of afterwords(io, path, asked)) prompt.say(line);
    return 0;
  } catch (error) {
    return stop(`mm-acp: setup failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    prompt.close();
  }
};
