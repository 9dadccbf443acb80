/**
 * The UserQuestions port over ACP ("full" surface): `elicitation/create` in form mode, one field
 * (`answer`: a single choice, or a short string), tied to the session and the `ask_user` call. Only
 * while the client advertises `elicitation.form`. A cancelled turn withdraws the question: the SDK
 * sends `$/cancel_request` for it and stops waiting. Whatever the client answers is checked here.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { errAsync, okAsync, ResultAsync } from "neverthrow";
import { MAX_ANSWER_CHARS, type UserAnswer, type UserQuestion, type UserQuestionError, type UserQuestions } from "@mm/core";
import type { Peer } from "../state/app-state.js";

/** Whether the client shows forms (`clientCapabilities.elicitation.form`). */
export const showsForms = (capabilities: acp.ClientCapabilities | undefined): boolean => capabilities?.elicitation?.form != null;

/** The form of one question: a single select over its choices, or a short free answer. */
export const elicitationOf = (question: UserQuestion): acp.CreateElicitationRequest => {
  const answer: acp.ElicitationPropertySchema =
    question.choices !== undefined && question.choices.length > 0
      ? { type: "string", title: "Answer", enum: [...question.choices] }
      : { type: "string", title: "Answer", maxLength: MAX_ANSWER_CHARS };
  return {
    mode: "form",
    sessionId: question.sessionId,
    ...(question.callId !== undefined ? { toolCallId: question.callId } : {}),
    message: question.question,
    requestedSchema: { type: "object", properties: { answer }, required: ["answer"] },
  };
};

/** The client's answer, checked: accept with an `answer`, decline or cancel; anything else is a failure. */
export const answerOf = (response: unknown): UserAnswer | UserQuestionError => {
  const r = (typeof response === "object" && response !== null ? response : {}) as { action?: unknown; content?: unknown };
  if (r.action === "decline") return { kind: "declined" };
  if (r.action === "cancel") return { kind: "cancelled" };
  if (r.action !== "accept") return { kind: "failed", message: `the editor answered with an unknown action ${JSON.stringify(r.action ?? null).slice(0, 40)}` };
  const value = typeof r.content === "object" && r.content !== null ? (r.content as { answer?: unknown }).answer : undefined;
  if (typeof value === "string") return { kind: "answered", answer: value };
  if (typeof value === "number" || typeof value === "boolean") return { kind: "answered", answer: String(value) };
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return { kind: "answered", answer: value.join(", ") };
  return { kind: "failed", message: "the editor's form came back without an answer" };
};

const isError = (value: UserAnswer | UserQuestionError): value is UserQuestionError => value.kind === "failed" || value.kind === "withdrawn";

/** Questions to the user through `peer`'s forms (the "full" surface's `ask_user`). */
export const acpUserQuestions = (peer: Peer): UserQuestions => ({
  available: () => showsForms(peer.capabilities),
  ask: (question) => {
    const client = peer.client;
    if (question.signal.aborted) return errAsync({ kind: "withdrawn" });
    if (client === undefined) return errAsync({ kind: "failed", message: "no editor connected" });
    const asked = client.request("elicitation/create", elicitationOf(question), { cancellationSignal: question.signal, stopWaitingOnCancel: true });
    return ResultAsync.fromPromise(
      asked,
      (thrown): UserQuestionError =>
        question.signal.aborted
          ? { kind: "withdrawn" }
          : { kind: "failed", message: `the editor did not show the form (${(thrown instanceof Error ? thrown.message : String(thrown)).split("\n")[0]})` },
    ).andThen((response) => {
      const answer = answerOf(response);
      return isError(answer) ? errAsync(answer) : okAsync(answer);
    });
  },
});
