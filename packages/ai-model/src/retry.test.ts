import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { modelFailure } from "./model-failure.js";
import { INITIAL_RETRY_DELAY_MS, retryDelayMs, withRetries, type RetryNotice } from "./retry.js";

const failure = (retryable: boolean, headers?: Record<string, string>): Error =>
  new APICallError({
    message: retryable ? "busy" : "bad",
    url: "http://localhost/v1/chat/completions",
    requestBodyValues: {},
    statusCode: retryable ? 503 : 400,
    isRetryable: retryable,
    ...(headers ? { responseHeaders: headers } : {}),
  });

/** Runs withRetries over scripted outcomes with a sleep that only records. */
const run = async (outcomes: readonly (Error | string)[], maxRetries = 2) => {
  const slept: number[] = [];
  const notices: RetryNotice[] = [];
  let attempts = 0;
  const result = await withRetries(
    async () => {
      const outcome = outcomes[attempts++]!;
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
    { maxRetries, signal: new AbortController().signal, sleep: async (ms) => void slept.push(ms), onRetry: (n) => notices.push(n) },
  ).then((outcome) =>
    outcome.match(
      (value) => ({ value }),
      (failure) => ({ failure }),
    ),
  );
  return { result, slept, notices, attempts };
};

describe("withRetries", () => {
  it("waits 2 s, then 4 s, between retryable failures, announcing each", async () => {
    const r = await run([failure(true), failure(true), "ok"]);
    expect(r.result).toEqual({ value: "ok" });
    expect(r.slept).toEqual([INITIAL_RETRY_DELAY_MS, 2 * INITIAL_RETRY_DELAY_MS]);
    expect(r.notices.map((n) => [n.retry, n.of, n.delayMs])).toEqual([
      [1, 2, 2000],
      [2, 2, 4000],
    ]);
  });

  it("gives up after maxRetries with every error, and never retries what is not retryable", async () => {
    const spent = await run([failure(true), failure(true), failure(true)]);
    expect(spent.result).toMatchObject({ failure: { kind: "retries-spent", attempts: 3, last: { kind: "http", status: 503 } } });
    expect(spent.attempts).toBe(3);
    const refused = await run([failure(false), "never"]);
    expect(refused.result).toMatchObject({ failure: { kind: "http", status: 400, detail: "bad" } });
    expect(refused.slept).toEqual([]);
    const badPort = new APICallError({
      message: "Cannot connect to API: bad port",
      url: "http://localhost:6000/v1",
      requestBodyValues: {},
      isRetryable: true,
      cause: new Error("bad port"),
    });
    const port = await run([badPort, "never"]);
    expect(port.result).toEqual({ failure: { kind: "bad-port" } });
    expect(port.attempts).toBe(1);
  });

  it("honours the server's retry-after-ms and retry-after", () => {
    expect(retryDelayMs(modelFailure(failure(true, { "retry-after-ms": "5" })), 2000)).toBe(5);
    expect(retryDelayMs(modelFailure(failure(true, { "retry-after": "3" })), 2000)).toBe(3000);
    expect(retryDelayMs(modelFailure(failure(true, { "retry-after": "600" })), 2000)).toBe(2000);
    expect(retryDelayMs(modelFailure(failure(true)), 4000)).toBe(4000);
  });
});
