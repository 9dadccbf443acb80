/**
 * `ask_user {question, choices?}`: the model asks the user a question the editor shows as its own form
 * (ACP elicitation), with choices to pick one from or a short free answer, and waits for it. Never
 * gated (the question is itself a dialog), not counted; offered only while `questions` is available
 * (an editor that shows forms). A declined or dismissed form is told to the model as such.
 */
import type { UserQuestionError, UserQuestions } from "../ports/user-questions.js";
import { MAX_ANSWER_CHARS } from "../ports/user-questions.js";
import { object } from "../schema/object.js";
import { array, optional, string } from "../schema/schema.js";
import { completed, defineTool, failed, type ToolOutcome } from "./tool.js";

/** At most this many choices are offered (the rest dropped), each at most this long. */
export const MAX_CHOICES = 20;
const MAX_CHOICE_CHARS = 200;

/** What the model receives when the user declines, dismisses, or the question cannot be asked. */
export const DECLINED = "[the user declined to answer the question]";
export const DISMISSED = "[the user dismissed the question without answering]";

const titleOf = (question: string): string => {
  const line = question.trim().split("\n")[0] ?? "";
  return `ask_user: ${line.length > 80 ? `${line.slice(0, 79)}…` : line}`;
};

/** The choices as offered: trimmed, non-empty, distinct, bounded. */
export const choicesOf = (raw: readonly string[] | undefined): readonly string[] =>
  [...new Set((raw ?? []).map((c) => c.trim().slice(0, MAX_CHOICE_CHARS)).filter((c) => c !== ""))].slice(0, MAX_CHOICES);

const problemOutcome = (e: UserQuestionError): ToolOutcome =>
  e.kind === "withdrawn" ? failed("[cancelled]") : failed(`[the question could not be asked: ${e.message}]`);

export const askUserTool = (questions: UserQuestions) =>
  defineTool({
    name: "ask_user",
    description:
      "Ask the user a question and wait for the answer, shown in their editor as a form: give `choices` for the user to pick one of, or none for a short free answer. Only when you cannot go on well without a decision or a fact only the user has; not to ask permission for a tool (the editor asks that itself).",
    guidance: "ask the user a question (choices to pick one of, or a short free answer) when only they can decide; the answer comes back as the result.",
    kind: "other",
    gated: false,
    recordsView: true,
    placeFree: true,
    offered: questions.available,
    input: object({
      question: string({ description: "The question, complete in itself", nonEmpty: true }),
      choices: optional(array(string(), { description: `Answers to pick one from (at most ${MAX_CHOICES}); omit for a free answer` })),
    }),
    title: (input) => titleOf(input.question),
    run: async (input, ctx) => {
      const choices = choicesOf(input.choices);
      const asked = await questions.ask({
        sessionId: ctx.sessionId ?? "",
        callId: ctx.callId,
        question: input.question.trim(),
        ...(choices.length > 0 ? { choices } : {}),
        signal: ctx.signal,
      });
      return asked.match((answer): ToolOutcome => {
        if (answer.kind === "declined") return failed(DECLINED);
        if (answer.kind === "cancelled") return failed(DISMISSED);
        const text = answer.answer.slice(0, MAX_ANSWER_CHARS);
        return completed(`The user answered: ${text}`);
      }, problemOutcome);
    },
  });
