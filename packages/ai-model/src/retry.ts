/**
 * Retries of a model request, as the AI SDK schedules them: 429, 5xx and connection failures (what
 * the provider marks retryable, except a port Node's fetch refuses outright, https:// to a plain-HTTP
 * server, an exhausted quota, a request too large for the model and an answer past its bound
 * (model-fetch.ts), which no retry helps) are tried again up to
 * `maxRetries` times, waiting 2 s, then twice as long each time, unless the server says how long with
 * `retry-after-ms` / `retry-after`. The wait is injectable so tests never sleep through it; each
 * retry is announced so the operator's log says why.
 */
import { answerTooLargeIn } from "@mm/core";
import { errorClass } from "./error-class.js";
import { isBadPort, isPlainHttpAnswer } from "./explain-error.js";

/** The AI SDK's first wait. */
export const INITIAL_RETRY_DELAY_MS = 2_000;
const MAX_HEADER_DELAY_MS = 60_000;

/** One retry about to happen: the attempt that failed (1-based), the limit, the wait, the failure. */
export type RetryNotice = { readonly retry: number; readonly of: number; readonly delayMs: number; readonly error: unknown };

/** How many retries, the signal that stops them, and the injectable wait and announcement. */
export type RetryOptions = {
  readonly maxRetries: number;
  readonly signal: AbortSignal;
  /** Waits `ms`, rejecting with the signal's reason when it aborts. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly onRetry?: (notice: RetryNotice) => void;
};

type CallFailure = Error & { readonly isRetryable?: boolean; readonly responseHeaders?: Record<string, string>; readonly cause?: unknown };

const isAbortError = (error: unknown): boolean =>
  (error instanceof Error || (typeof DOMException !== "undefined" && error instanceof DOMException)) &&
  (error.name === "AbortError" || error.name === "ResponseAborted" || error.name === "TimeoutError");

/** The wait before the next attempt: the server's `retry-after-ms` / `retry-after` when sane, else the backoff. */
export const retryDelayMs = (error: unknown, backoffMs: number, now: number = Date.now()): number => {
  const failure = error as CallFailure;
  const headers = failure.responseHeaders ?? (failure.cause as CallFailure | undefined)?.responseHeaders;
  if (!headers) return backoffMs;
  let ms: number | undefined;
  const retryAfterMs = headers["retry-after-ms"];
  if (retryAfterMs) {
    const value = Number.parseFloat(retryAfterMs);
    if (!Number.isNaN(value)) ms = value;
  }
  const retryAfter = headers["retry-after"];
  if (retryAfter && ms === undefined) {
    const seconds = Number.parseFloat(retryAfter);
    ms = Number.isNaN(seconds) ? Date.parse(retryAfter) - now : seconds * 1000;
  }
  return ms !== undefined && !Number.isNaN(ms) && ms >= 0 && (ms < MAX_HEADER_DELAY_MS || ms < backoffMs) ? ms : backoffMs;
};

/** What the AI SDK throws when retries ran out; explainError reads `lastError` and the number of `errors`. */
const retryError = (errors: readonly unknown[]): Error => {
  const last = errors.at(-1);
  const error = new Error(`Failed after ${errors.length} attempts. Last error: ${last instanceof Error ? last.message : String(last)}`);
  return Object.assign(error, { name: "AI_RetryError", lastError: last, errors: [...errors] });
};

/** A real wait on a timer, cut short by the signal. */
export const timerSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });

/**
 * Whether trying again may help: what the provider marks retryable, but a refused port, TLS to a
 * plain-HTTP server, an exhausted quota, a request too large, or an answer past its bound (an error
 * body that never ends: the same server would send the same).
 */
export const retryableFailure = (error: unknown): boolean =>
  error instanceof Error &&
  (error as CallFailure).isRetryable === true &&
  !isBadPort(error) &&
  !isPlainHttpAnswer(error) &&
  errorClass(error) === undefined &&
  answerTooLargeIn(error) === undefined;

/** Runs `attempt`, retrying retryable failures up to `maxRetries` times. */
export const withRetries = async <T>(attempt: () => Promise<T>, options: RetryOptions): Promise<T> => {
  const { maxRetries, signal } = options;
  const sleep = options.sleep ?? timerSleep;
  const errors: unknown[] = [];
  let backoffMs = INITIAL_RETRY_DELAY_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (isAbortError(error) || maxRetries === 0) throw error;
      errors.push(error);
      if (errors.length > maxRetries) throw retryError(errors);
      if (!retryableFailure(error)) throw errors.length === 1 ? error : retryError(errors);
      const delayMs = retryDelayMs(error, backoffMs);
      options.onRetry?.({ retry: errors.length, of: maxRetries, delayMs, error });
      await sleep(delayMs, signal);
      backoffMs *= 2;
    }
  }
};
