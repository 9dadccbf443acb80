/**
 * Every way a model request fails, as one tagged union ({@link ModelFailure}), read in one place from
 * what was thrown (or what a stream sent): {@link modelFailure}. retry.ts decides on it whether to try
 * again, explain-error.ts matches it once to one line for the user. AI SDK errors are recognised with
 * the SDK's own `isInstance` helpers (they hold across copies of the SDK), mm's with `instanceof`; only
 * the platform's abort and timeout errors (DOMExceptions) go by their standard names, and an answer
 * past its bound by @mm/core's `answerTooLargeIn`.
 */
import { APICallError, LoadAPIKeyError } from "@ai-sdk/provider";
import { answerTooLargeIn } from "@mm/core";
import { bodyFields, type ErrorClass, errorClass } from "./error-class.js";
import { RedirectRefused } from "./model-fetch.js";

/** What an AI SDK API call said about its failure: whether the provider calls it retryable, its status and headers. */
export type CallFacts = { readonly retryable: boolean; readonly status: number | undefined; readonly headers: Readonly<Record<string, string>> | undefined };

/** Why a model request failed. `detail`, `reason`, `message`: one line, not yet scrubbed of the key. */
export type ModelFailure =
  /** Cancelled (the editor's cancel, the step's own stop). */
  | { readonly kind: "aborted" }
  | { readonly kind: "timeout" }
  /** An https:// URL on a plain-HTTP server. */
  | { readonly kind: "plain-http" }
  /** A port Node's fetch refuses outright. */
  | { readonly kind: "bad-port" }
  /** An answer past its bound (@mm/core's `AnswerTooLarge`); `message` has no subject. */
  | { readonly kind: "answer-too-large"; readonly message: string }
  /** A redirect not followed (model-fetch.ts); `message` has no subject. */
  | { readonly kind: "redirect-refused"; readonly message: string; readonly why: RedirectRefused["why"] }
  /** Retries ran out, or a retry failed in a way no retry helps: the last failure, after `attempts` attempts. */
  | { readonly kind: "retries-spent"; readonly attempts: number; readonly last: ModelFailure }
  /** The server closed the stream itself, cleanly, before it finished the answer. */
  | { readonly kind: "stream-ended" }
  /** Reading the stream failed before the answer was finished; `reason` is `mid-stream` when no better one is known. */
  | { readonly kind: "stream-broken"; readonly reason: string }
  | { readonly kind: "too-much-output"; readonly limit: number }
  /** A quota, too-large or images-refused answer (error-class.ts), in the server's words. */
  | { readonly kind: "refused"; readonly class: ErrorClass; readonly status: number | undefined; readonly detail: string }
  /** An error status (400 and up). */
  | { readonly kind: "http"; readonly status: number; readonly detail: string; readonly call: CallFacts }
  /** No answer: the connection could not be made (`reason` says why). */
  | { readonly kind: "unreachable"; readonly reason: string; readonly call: CallFacts | undefined }
  /** A started answer whose connection broke. */
  | { readonly kind: "broke-mid-response"; readonly call: CallFacts | undefined }
  /** An error frame the server streamed (`{ error: { message } }`). */
  | { readonly kind: "streamed-error"; readonly message: string }
  /** The AI SDK found no API key. */
  | { readonly kind: "missing-key"; readonly message: string }
  /** A header that cannot be sent (a stray character in the key or the configured headers). */
  | { readonly kind: "bad-header"; readonly message: string }
  /** Anything else the server sent or the SDK threw. */
  | { readonly kind: "unusable"; readonly message: string; readonly call: CallFacts | undefined }
  /** A thrown value that is neither an Error nor an error frame. */
  | { readonly kind: "odd-value"; readonly text: string };

/** A failure already read (a stream's end, a stream part, a read), thrown through an attempt to {@link modelFailure}. */
export class StepFailed extends Error {
  constructor(readonly failure: ModelFailure) {
    super(failure.kind);
  }
}

const MAX_DETAIL = 200;

const NETWORK_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ConnectionRefused: "connection refused",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ECONNRESET: "connection reset",
  ConnectionClosed: "connection closed",
  ETIMEDOUT: "connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  UND_ERR_HEADERS_TIMEOUT: "no response headers in time",
  UND_ERR_BODY_TIMEOUT: "the response stalled",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
};

const codeOf = (error: Error): unknown => (error as { code?: unknown }).code;

/**
 * A header value holding a character over 255 (a key pasted with `…` or a curly quote): Node 20's
 * fetch (undici's WebIDL conversion) throws a TypeError with no code, only these words, before any
 * request is made. Nothing the server sent: the key or a configured header is at fault.
 */
const byteStringRefused = (error: Error): boolean =>
  [error, (error as { cause?: unknown }).cause].some((e) => e instanceof TypeError && /Cannot convert argument to a ByteString/.test(e.message));

/** `error` and the chain of its causes, each once. */
function* causesOf(error: unknown): Generator<Error> {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current);
    yield current;
  }
}

/** Whether `error` is Node's fetch refusing the URL's port outright ("bad port": the ports browsers block, such as 6000). */
const isBadPort = (error: unknown): boolean => [...causesOf(error)].some((current) => /\bbad port\b/i.test(current.message));

/** Whether `error` is a TLS handshake answered in plain text (OpenSSL's "wrong version number"). */
export const isPlainHttpAnswer = (error: unknown): boolean =>
  [...causesOf(error)].some((current) => {
    const code = codeOf(current);
    return code === "ERR_SSL_WRONG_VERSION_NUMBER" || (code === "EPROTO" && /wrong version number/i.test(current.message));
  });

/** Why the connection failed, "mid-stream" when a started response broke, undefined when not a network error. */
const networkReason = (error: Error): string | undefined => {
  let deepest: Error = error;
  let fetchFailed = false;
  for (const current of causesOf(error)) {
    deepest = current;
    const code = codeOf(current);
    if (typeof code === "string" && NETWORK_CODES[code]) return NETWORK_CODES[code];
    if (code === "UND_ERR_SOCKET" || current.message === "terminated") return "mid-stream";
    if (/^(fetch failed|failed to fetch|cannot connect to api)/i.test(current.message)) fetchFailed = true;
  }
  return fetchFailed ? oneLine(deepest.message) : undefined;
};

/** `text` on one line, at most {@link MAX_DETAIL} characters. */
const oneLine = (text: string): string => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL - 1)}…` : line;
};

/** The server's words for an error status: the message, else the body when the message is only the status's name. */
const detailOf = (message: string, body: string | undefined): string => {
  const line = oneLine(message);
  if (line !== "" && !/^(internal server error|bad gateway|service unavailable|too many requests|unauthorized)$/i.test(line)) return line;
  const fromBody = oneLine(body ?? "");
  return fromBody !== "" ? fromBody : line || "no details";
};

/** A quota, too-large or images-refused failure, `detail` the server's words when it has some. */
const refused = (error: unknown, status: number | undefined, detail: string): ModelFailure | undefined => {
  const kind = errorClass(error);
  if (kind === undefined) return undefined;
  return { kind: "refused", class: kind, status, detail: detail !== "" ? detail : oneLine(bodyFields(error).message) || "no details" };
};

/** Not an Error: typically an error frame the server streamed after some output (`{ error: { message } }`). */
const valueFailure = (value: unknown): ModelFailure => {
  const classified = refused(value, undefined, "");
  if (classified !== undefined) return classified;
  const record = (v: unknown): Record<string, unknown> | undefined => (typeof v === "object" && v !== null ? (v as Record<string, unknown>) : undefined);
  const frame = record(value);
  const inner = record(frame?.error) ?? frame;
  return typeof inner?.message === "string"
    ? { kind: "streamed-error", message: oneLine(inner.message) || "no details" }
    : { kind: "odd-value", text: oneLine(String(value)) };
};

/** A failure's place: `read`, reading a stream already answered (any failure there but a cancel or a bound breaks it). */
type FailedWhile = "request" | "read";

/** What `error` (thrown by an attempt, or sent by a stream) says failed: the one place it is read. */
export const modelFailure = (error: unknown, during: FailedWhile = "request"): ModelFailure => {
  if (error instanceof StepFailed) return error.failure;
  if (!(error instanceof Error)) return valueFailure(error);
  if (isPlainHttpAnswer(error)) return { kind: "plain-http" };
  if (isBadPort(error)) return { kind: "bad-port" };
  const tooLarge = answerTooLargeIn(error);
  if (tooLarge !== undefined) return { kind: "answer-too-large", message: tooLarge.message };
  const redirect = [...causesOf(error)].find((current): current is RedirectRefused => current instanceof RedirectRefused);
  if (redirect !== undefined) return { kind: "redirect-refused", message: redirect.message, why: redirect.why };
  if (during === "read" && error.name !== "AbortError") return { kind: "stream-broken", reason: networkReason(error) ?? oneLine(error.message) };
  if (error.name === "AbortError" || error.name === "ResponseAborted") return { kind: "aborted" };
  if (error.name === "TimeoutError") return { kind: "timeout" };
  const api = APICallError.isInstance(error) ? error : undefined;
  const status = api?.statusCode;
  const call: CallFacts | undefined = api && { retryable: api.isRetryable, status, headers: api.responseHeaders };
  const classified = refused(error, status, status !== undefined ? detailOf(error.message, api?.responseBody) : oneLine(error.message));
  if (classified !== undefined) return classified;
  if (call !== undefined && status !== undefined && status >= 400) return { kind: "http", status, detail: detailOf(error.message, api?.responseBody), call };
  const network = networkReason(error);
  if (network !== undefined) {
    return status !== undefined || network === "mid-stream" ? { kind: "broke-mid-response", call } : { kind: "unreachable", reason: network, call };
  }
  if (LoadAPIKeyError.isInstance(error)) return { kind: "missing-key", message: oneLine(error.message) };
  const code = codeOf(error);
  if (code === "ERR_INVALID_CHAR" || code === "ERR_INVALID_HTTP_TOKEN" || byteStringRefused(error))
    return { kind: "bad-header", message: oneLine(error.message) };
  return { kind: "unusable", message: oneLine(error.message), call };
};

/** What the provider said of a failed call, when it said anything. */
export const callFacts = (failure: ModelFailure): CallFacts | undefined => ("call" in failure ? failure.call : undefined);
