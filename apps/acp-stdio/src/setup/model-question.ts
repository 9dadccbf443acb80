/**
 * The setup's question for the model, once the server was asked: its models offered by number, the
 * default one of them (the file's, else OpenAI's default on OpenAI, else the first), and a name the
 * server does not list taken only when typed twice. Without a list, no OpenAI model is offered for
 * another server.
 */
import { isOpenAIHost } from "@mm/ai-model";
import { err, ok, type Result } from "neverthrow";
import { DEFAULT_MODEL } from "../config/index.js";
import { checkAnswer } from "./setup-document.js";

/** The model offered on an empty answer; "" for none (a name must be typed). */
export const defaultModel = (ids: readonly string[] | undefined, fileName: string | undefined, baseURL: string): string => {
  if (ids !== undefined && ids.length > 0) {
    if (fileName !== undefined && ids.includes(fileName)) return fileName;
    return isOpenAIHost(baseURL) && ids.includes(DEFAULT_MODEL.name) ? DEFAULT_MODEL.name : ids[0]!;
  }
  return fileName ?? (isOpenAIHost(baseURL) ? DEFAULT_MODEL.name : "");
};

/** Checks the answers to the model question: a number of the list, a listed name, or an unlisted one typed twice in a row. */
export const modelAnswerCheck = (ids: readonly string[] | undefined): ((value: string) => Result<string, string>) => {
  let unlisted: string | undefined;
  return (value) => {
    const typed = value.trim();
    if (typed === "") return err("type the model's name");
    const listed = ids ?? [];
    if (listed.length > 0 && /^\d+$/.test(typed) && !listed.includes(typed)) {
      const index = Number(typed);
      return index >= 1 && index <= listed.length ? ok(listed[index - 1]!) : err(`choose 1 to ${listed.length}, or type a name`);
    }
    const checked = checkAnswer("name", typed);
    if (checked.isErr() || listed.length === 0 || listed.includes(typed) || unlisted === typed) return checked;
    unlisted = typed;
    return err(`the server does not list ${JSON.stringify(typed)}: type it again to keep it, or choose one of the list`);
  };
};
