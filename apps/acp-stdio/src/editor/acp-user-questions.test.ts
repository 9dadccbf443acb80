import { describe, expect, it } from "vitest";
import { acpUserQuestions, answerOf, elicitationOf, showsForms } from "./acp-user-questions.js";

describe("answerOf", () => {
  it("reads an accepted answer, a decline and a dismissal", () => {
    expect(answerOf({ action: "accept", content: { answer: "sqlite" } })).toEqual({ kind: "answered", answer: "sqlite" });
    expect(answerOf({ action: "accept", content: { answer: ["a", "b"] } })).toEqual({ kind: "answered", answer: "a, b" });
    expect(answerOf({ action: "accept", content: { answer: 3 } })).toEqual({ kind: "answered", answer: "3" });
    expect(answerOf({ action: "decline" })).toEqual({ kind: "declined" });
    expect(answerOf({ action: "cancel" })).toEqual({ kind: "cancelled" });
  });

  it("takes anything else for a failure, never a made-up answer", () => {
    for (const response of [null, {}, "accept", { action: "accept" }, { action: "accept", content: { other: "x" } }, { action: "_custom" }]) {
      expect(answerOf(response)).toMatchObject({ kind: "failed" });
    }
  });
});

describe("elicitationOf", () => {
  const signal = new AbortController().signal;
  it("a single select over the choices, tied to the session and the call", () => {
    expect(elicitationOf({ sessionId: "s", callId: "call_2", question: "Which?", choices: ["a", "b"], signal })).toEqual({
      mode: "form",
      sessionId: "s",
      toolCallId: "call_2",
      message: "Which?",
      requestedSchema: { type: "object", properties: { answer: { type: "string", title: "Answer", enum: ["a", "b"] } }, required: ["answer"] },
    });
  });

  it("a bounded string without choices", () => {
    expect((elicitationOf({ sessionId: "s", question: "Name?", signal }) as { requestedSchema: unknown }).requestedSchema).toMatchObject({
      properties: { answer: { type: "string", maxLength: 2000 } },
    });
  });
});

describe("acpUserQuestions", () => {
  it("is available only to a client advertising elicitation.form", () => {
    expect(showsForms({ elicitation: { form: {} } })).toBe(true);
    expect(showsForms({ elicitation: { url: {} } })).toBe(false);
    expect(showsForms({})).toBe(false);
    expect(acpUserQuestions({ client: undefined, capabilities: { elicitation: { form: {} } } }).available()).toBe(true);
  });

  it("a question asked after the turn was cancelled is withdrawn, nothing sent", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await acpUserQuestions({ client: undefined, capabilities: {} }).ask({ sessionId: "s", question: "q", signal: controller.signal });
    expect(result._unsafeUnwrapErr()).toEqual({ kind: "withdrawn" });
  });
});
