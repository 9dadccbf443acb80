import { APICallError, LoadAPIKeyError } from "@ai-sdk/provider";
import { AnswerTooLarge } from "@mm/core";
import { describe, expect, it } from "vitest";
import { modelFailure, StepFailed } from "./model-failure.js";
import { RedirectRefused } from "./model-fetch.js";

const call = (fields: Partial<ConstructorParameters<typeof APICallError>[0]>): APICallError =>
  new APICallError({ message: "failed", url: "http://localhost/v1/chat/completions", requestBodyValues: {}, ...fields });

const socketClosed = (): Error => new TypeError("terminated", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) });

describe("modelFailure", () => {
  it("reads a header fetch refuses (a key pasted with a character over 255) as a bad header, not as the server's answer", async () => {
    const refused = await fetch("http://127.0.0.1:9/v1", { headers: { authorization: "Bearer sk-…" } }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refused).toBeInstanceOf(TypeError);
    expect(modelFailure(refused!)).toMatchObject({ kind: "bad-header", message: expect.stringContaining("ByteString") });
  });

  it("reads an AI SDK call's failure by APICallError.isInstance, with what the provider said of it", () => {
    expect(modelFailure(call({ message: "Service Unavailable", statusCode: 503, responseBody: "busy", responseHeaders: { "retry-after": "1" } }))).toEqual({
      kind: "http",
      status: 503,
      detail: "busy",
      call: { retryable: true, status: 503, headers: { "retry-after": "1" } },
    });
    expect(
      modelFailure(
        call({ message: "Cannot connect to API: connect ECONNREFUSED", isRetryable: true, cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }) }),
      ),
    ).toMatchObject({
      kind: "unreachable",
      reason: "connection refused",
      call: { retryable: true },
    });
    expect(modelFailure(new LoadAPIKeyError({ message: "OpenAI API key is missing" }))).toEqual({ kind: "missing-key", message: "OpenAI API key is missing" });
  });

  it("no longer trusts a name: an error calling itself AI_APICallError with a status is no HTTP failure", () => {
    const lookAlike = Object.assign(new Error("Service Unavailable"), { name: "AI_APICallError", statusCode: 503, isRetryable: true });
    expect(modelFailure(lookAlike)).toEqual({ kind: "unusable", message: "Service Unavailable", call: undefined });
    const oldStreamBroken = Object.assign(new Error("terminated"), { name: "MM_StreamBroken", isRetryable: true });
    expect(modelFailure(oldStreamBroken).kind).not.toBe("stream-broken");
  });

  it("takes a failure already read as it was thrown, and mm's own errors by class", () => {
    expect(modelFailure(new StepFailed({ kind: "stream-ended" }))).toEqual({ kind: "stream-ended" });
    expect(modelFailure(new RedirectRefused(308, "http://elsewhere/v1", "other-origin"))).toMatchObject({ kind: "redirect-refused", why: "other-origin" });
    expect(modelFailure(new Error("fetch failed", { cause: new AnswerTooLarge("event", 8) }))).toMatchObject({ kind: "answer-too-large" });
  });

  it("a read that failed breaks the stream, unless it was a cancel or an answer past its bound", () => {
    expect(modelFailure(socketClosed(), "read")).toEqual({ kind: "stream-broken", reason: "mid-stream" });
    expect(modelFailure(socketClosed())).toEqual({ kind: "broke-mid-response", call: undefined });
    expect(modelFailure(new DOMException("aborted", "AbortError"), "read")).toEqual({ kind: "aborted" });
    expect(modelFailure(new AnswerTooLarge("event", 8), "read")).toMatchObject({ kind: "answer-too-large" });
  });

  it("reads what a stream sent that is no Error: an error frame, a refusal, anything else", () => {
    expect(modelFailure({ error: { message: "overloaded\n now" } })).toEqual({ kind: "streamed-error", message: "overloaded now" });
    expect(modelFailure({ error: { message: "You exceeded your current quota", code: "insufficient_quota" } })).toMatchObject({
      kind: "refused",
      class: "quota",
    });
    expect(modelFailure(42)).toEqual({ kind: "odd-value", text: "42" });
  });
});
