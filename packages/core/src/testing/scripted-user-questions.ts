/** UserQuestions for tests and embedders: answers from a script, records every question; a withdrawn question when its signal fires first. */
import { errAsync, ResultAsync } from "neverthrow";
import type { UserAnswer, UserQuestion, UserQuestionError, UserQuestions } from "../ports/user-questions.js";

export type ScriptedQuestions = UserQuestions & { readonly questions: UserQuestion[] };

type Script = UserAnswer | UserQuestionError | ((question: UserQuestion) => Promise<UserAnswer | UserQuestionError>);

const isError = (value: UserAnswer | UserQuestionError): value is UserQuestionError => value.kind === "failed" || value.kind === "withdrawn";

/** Questions answered by `script` (or the function's answer); `available` false: the tool is not offered. */
export const scriptedQuestions = (script: Script = { kind: "declined" }, available = true): ScriptedQuestions => {
  const questions: UserQuestion[] = [];
  return {
    questions,
    available: () => available,
    ask: (question) => {
      questions.push(question);
      if (question.signal.aborted) return errAsync({ kind: "withdrawn" });
      const withdrawn = new Promise<UserQuestionError>((resolve) =>
        question.signal.addEventListener("abort", () => resolve({ kind: "withdrawn" }), { once: true }),
      );
      const answered = typeof script === "function" ? script(question) : Promise.resolve(script);
      return ResultAsync.fromSafePromise(Promise.race([answered, withdrawn])).andThen((value) =>
        isError(value) ? errAsync(value) : ResultAsync.fromSafePromise(Promise.resolve(value)),
      );
    },
  };
};
