/**
 * The UserQuestions port: asks the user a question in the editor's own form (ACP elicitation) and
 * hands back what came of it. The model's `ask_user` tool runs through it.
 */
import type { ResultAsync } from "neverthrow";

/** One question: the session (and the call) it belongs to, the text, the choices if any, the turn's signal. */
export type UserQuestion = {
  readonly sessionId: string;
  /** The tool call asking, so the editor can show the form with it. */
  readonly callId?: string | undefined;
  readonly question: string;
  /** The answers to pick from (one of them); absent or empty: a short free answer. */
  readonly choices?: readonly string[] | undefined;
  /** Aborted when the turn is cancelled: the question is withdrawn. */
  readonly signal: AbortSignal;
};

/** What came of a question: an answer, the user declined to answer, or dismissed the form. */
export type UserAnswer = { readonly kind: "answered"; readonly answer: string } | { readonly kind: "declined" } | { readonly kind: "cancelled" };

/** Why a question got no answer of the user's: the editor failed, or the turn was cancelled first. */
export type UserQuestionError = { readonly kind: "failed"; readonly message: string } | { readonly kind: "withdrawn" };

/**
 * Contract: `available` says whether questions can be asked now (an editor that shows forms); `ask`
 * never rejects, and its error is a value.
 */
export type UserQuestions = {
  readonly available: () => boolean;
  readonly ask: (question: UserQuestion) => ResultAsync<UserAnswer, UserQuestionError>;
};

/** The longest free answer the model receives, in characters (the form asks for no more). */
export const MAX_ANSWER_CHARS = 2000;
