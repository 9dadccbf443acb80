/**
 * Retries of a model request, as the AI SDK schedules them: 429, 5xx and connection failures (what
 * the provider marks retryable, except a port Node's fetch refuses outright, https:// to a plain-HTTP
 * server, an exhausted quota, a request too large for the model and an answer past its bound
 * (model-fetch.ts), which no retry helps) and a stream that broke or ended before it was finished are
 * tried again up to `maxRetries` times, waiting 2 s, then twice as long each time, unless the server
 * says how long with `retry-after-ms` / `retry-after`. The wait is injectable so tests never sleep
 * through it; each retry is announced so the operator's log says why. Each failure is read once
 * (model-failure.ts); the outcome is a value: the attempt's, or the failure that ended the retries.
 *
 * Not the AI SDK's own retry: `ai` 6 does not export it (`retryWithExponentialBackoff` is internal to
 * `streamText`/`generateText`), and it retries only the request, not a stream that broke before
 * anything of it was shown (docs/decisions.md, "Model failures as one union").
 */
import { err, ok, type Result } from "neverthrow";
import { callFacts, type ModelFailure, modelFailure } from "./model-failure.js";

/** The AI SDK's first wait. */
export const INITIAL_RETRY_DELAY_MS = 2_000;
const MAX_HEADER_DELAY_MS = 60_000;

/** One retry about to happen: the attempt that failed (1-based), the limit, the wait, the failure. */
export type RetryNotice = { readonly retry: number; readonly of: number; readonly delayMs: number; readonly failure: ModelFailure };

/** How many retries, the signal that stops them, and the injectable wait and announcement. */
export type RetryOptions = {
  readonly maxRetries: number;
  readonly signal: AbortSignal;
  /** Waits `ms`, rejecting with the signal's reason when it aborts. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly onRetry?: (notice: RetryNotice) => void;
};

/** The wait before the next attempt: the server's `retry-after-ms` / `retry-after` when sane, else the backoff. */
export const retryDelayMs = (failure: ModelFailure, backoffMs: number, now: number = Date.now()): number => {
  const headers = callFacts(failure)?.headers;
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
 * Whether trying again may help: a stream that broke or ended unfinished, and what the provider marks
 * retryable; never a refused port, TLS to a plain-HTTP server, an exhausted quota, a request too
 * large, or an answer past its bound (an error body that never ends: the same server would send the
 * same), each a kind of its own.
 */
export const retryableFailure = (failure: ModelFailure): boolean =>
  failure.kind === "stream-ended" || failure.kind === "stream-broken" || callFacts(failure)?.retryable === true;

/** Runs `attempt`, retrying retryable failures up to `maxRetries` times; a cancel or a timeout is never retried. */
export const withRetries = async <T>(attempt: () => Promise<T>, options: RetryOptions): Promise<Result<T, ModelFailure>> => {
  const { maxRetries, signal } = options;
  const sleep = options.sleep ?? timerSleep;
  let attempts = 0;
  let backoffMs = INITIAL_RETRY_DELAY_MS;
  for (;;) {
    let failure: ModelFailure;
    try {
      return ok(await attempt());
    } catch (error) {
      failure = modelFailure(error);
    }
    if (failure.kind === "aborted" || failure.kind === "timeout" || maxRetries === 0) return err(failure);
    attempts++;
    const spent = (): ModelFailure => (attempts === 1 ? failure : { kind: "retries-spent", attempts, last: failure });
    if (attempts > maxRetries || !retryableFailure(failure)) return err(spent());
    const delayMs = retryDelayMs(failure, backoffMs);
    options.onRetry?.({ retry: attempts, of: maxRetries, delayMs, failure });
    try {
      await sleep(delayMs, signal);
    } catch (error) {
      return err(modelFailure(error));
    }
    backoffMs *= 2;
  }
};
