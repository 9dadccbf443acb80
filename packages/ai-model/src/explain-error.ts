/**
 * Turns whatever a model step failed with (AI SDK errors, fetch failures, aborts, mm's own stream
 * failures) into mm's `ModelError`: a kind and one line fit for the user. Recognises AI SDK errors by
 * name so this module loads without the SDK; never lets the API key through.
 */
import { answerTooLargeIn, type ModelError } from "@mm/core";
import { bodyFields, errorClass } from "./error-class.js";
import type { RedirectRefused } from "./model-fetch.js";

/**
 * Where the step went and with what key: for the message, and for what must never be in it.
 * `apiKeyEnv`: the variable the key was read from (`OPENAI_API_KEY` when absent), named when refused.
 */
export type ErrorContext = { readonly baseURL: string; readonly apiKey?: string | undefined; readonly apiKeyEnv?: string | undefined };

type Failure = Error & {
  readonly statusCode?: number;
  readonly responseBody?: string;
  readonly lastError?: unknown;
  readonly errors?: readonly unknown[];
  readonly code?: unknown;
};

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

/** `error` and the chain of its causes, each once. */
function* causesOf(error: unknown): Generator<Error> {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current);
    yield current;
  }
}

/**
 * Whether `error` is Node's fetch refusing the URL's port outright ("bad port": the ports browsers
 * block, such as 6000): no retry can help.
 */
export const isBadPort = (error: unknown): boolean => {
  for (const current of causesOf(error)) {
    if (/\bbad port\b/i.test(current.message)) return true;
    const last = (current as Failure).lastError;
    if (last !== undefined && last !== current && isBadPort(last)) return true;
  }
  return false;
};

/**
 * Whether `error` is a TLS handshake answered in plain text: an https:// URL on a plain-HTTP server
 * (OpenSSL's "wrong version number"). No retry can help; http:// can.
 */
export const isPlainHttpAnswer = (error: unknown): boolean => {
  for (const current of causesOf(error)) {
    const code = (current as Failure).code;
    if (code === "ERR_SSL_WRONG_VERSION_NUMBER" || (code === "EPROTO" && /wrong version number/i.test(current.message))) return true;
    const last = (current as Failure).lastError;
    if (last !== undefined && last !== current && isPlainHttpAnswer(last)) return true;
  }
  return false;
};

/** `baseURL` with http:// for https://. */
const plainHttpURL = (baseURL: string): string => baseURL.replace(/^https:/i, "http:");

const portOf = (baseURL: string): string => {
  try {
    const url = new URL(baseURL);
    return url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
  } catch {
    return "?";
  }
};

/** What to check after a 404: the model's name, and a base URL that lacks the usual `/v1`. */
const notFoundHint = (baseURL: string): string => {
  try {
    const path = new URL(baseURL).pathname.replace(/\/+$/, "");
    if (!/\/v\d+[a-z]*$/i.test(path)) return `check model.name; model.baseURL usually ends in /v1: try ${baseURL.replace(/\/+$/, "")}/v1`;
  } catch {
    // Not a URL: the generic hint.
  }
  return "check model.name and model.baseURL";
};

/** The redirect not followed (model-fetch.ts) in `error`, its causes or a retry's last error, recognised by name. */
const redirectRefusedIn = (error: unknown): RedirectRefused | undefined => {
  for (const current of causesOf(error)) {
    if (current.name === "MM_RedirectRefused") return current as RedirectRefused;
    const last = (current as Failure).lastError;
    if (last !== undefined && last !== current) return redirectRefusedIn(last);
  }
  return undefined;
};

/** The error of a step ended by its signal. */
export const abortedError = (): ModelError => ({ kind: "aborted", message: "the model step was cancelled" });

/** `error` as a ModelError: its kind and one line for the user, without the key. */
export const explainError = (error: unknown, context: ErrorContext): ModelError => {
  const explained = explain(error, context);
  return { kind: explained.kind, message: scrub(explained.message, context.apiKey) };
};

const explain = (error: unknown, context: ErrorContext): ModelError => {
  const { baseURL } = context;
  if (!(error instanceof Error)) return explainValue(error);
  if (isPlainHttpAnswer(error)) {
    return {
      kind: "network",
      message: `cannot reach the model server at ${baseURL}: it answers plain HTTP, not TLS ("wrong version number"); use http://, as in ${plainHttpURL(baseURL)}`,
    };
  }
  if (isBadPort(error)) {
    return {
      kind: "network",
      message: `cannot reach the model server at ${baseURL}: Node's fetch refuses port ${portOf(baseURL)} ("bad port", one of the ports browsers block); serve the model on another port`,
    };
  }
  const tooLarge = answerTooLargeIn(error);
  if (tooLarge !== undefined) return { kind: "bad-response", message: `the model server at ${baseURL} ${tooLarge.message}; stopped, not retried` };
  const redirect = redirectRefusedIn(error);
  if (redirect !== undefined) {
    const hint = redirect.why === "too-many" || redirect.why === "credentials" ? "" : " (if that is the model server, set model.baseURL to its URL)";
    return { kind: "config", message: `the model server at ${baseURL} ${redirect.message}${hint}` };
  }
  const failure = error as Failure;
  if (failure.name === "AbortError" || failure.name === "ResponseAborted") return abortedError();
  if (failure.name === "TimeoutError") return { kind: "network", message: `the model server at ${baseURL} timed out` };
  if (failure.name === "AI_RetryError" && failure.lastError !== undefined) {
    return explainLast(failure.lastError, failure.errors?.length ?? 1, context);
  }
  return explainLast(error, 1, context);
};

/** Not an Error: typically an error frame the server streamed after some output (`{ error: { message } }`). */
const explainValue = (value: unknown): ModelError => {
  const classified = classifiedError(value, undefined, "");
  if (classified !== undefined) return classified;
  const record = (v: unknown): Record<string, unknown> | undefined => (typeof v === "object" && v !== null ? (v as Record<string, unknown>) : undefined);
  const frame = record(value);
  const inner = record(frame?.error) ?? frame;
  return typeof inner?.message === "string"
    ? { kind: "server", message: `the model server failed mid-response: ${oneLine(inner.message) || "no details"}` }
    : { kind: "bad-response", message: `model step failed: ${oneLine(String(value))}` };
};

const explainLast = (error: unknown, attempts: number, { baseURL, apiKey, apiKeyEnv = "OPENAI_API_KEY" }: ErrorContext): ModelError => {
  if (!(error instanceof Error)) return explainValue(error);
  const failure = error as Failure;
  const status = failure.statusCode;
  const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
  // The server closed the stream itself, cleanly, before it finished the answer (no finish reason, no
  // response.completed): not a broken connection, though still an error.
  if (failure.name === "MM_UnfinishedStream") {
    return { kind: "network", message: `the model server at ${baseURL} ended the stream before finishing the answer${tries}` };
  }
  if (failure.name === "MM_StreamBroken") {
    const reason = networkReason(failure) ?? oneLine(failure.message);
    return {
      kind: "network",
      message: `the connection to the model server at ${baseURL} broke before the answer was finished${reason !== "mid-stream" ? ` (${reason})` : ""}${tries}`,
    };
  }
  if (failure.name === "MM_TooMuchOutput") return { kind: "bad-response", message: oneLine(failure.message) };
  const classified = classifiedError(error, status, status !== undefined ? detailOf(failure) : oneLine(failure.message));
  if (classified !== undefined) return classified;
  if (status !== undefined && status >= 400) {
    const detail = detailOf(failure);
    if (status === 401 || status === 403) return refusedKey(status, detail, apiKey, apiKeyEnv);
    if (status === 429) {
      return { kind: "rate-limit", message: `the model server is rate-limiting requests (429)${attempts > 1 ? `, retries exhausted${tries}` : ""}: ${detail}` };
    }
    if (status >= 500) return { kind: "server", message: `model server error ${status}${tries}: ${detail}` };
    if (status === 404) {
      return { kind: "bad-response", message: `the model server answered 404: ${detail} (${notFoundHint(baseURL)})` };
    }
    return { kind: "bad-response", message: `the model server rejected the request (${status}): ${detail}` };
  }
  const network = networkReason(failure);
  if (network !== undefined) {
    return status !== undefined || network === "mid-stream"
      ? { kind: "network", message: `the connection to the model server at ${baseURL} broke mid-response` }
      : { kind: "network", message: `cannot reach the model server at ${baseURL}: ${network}${tries}` };
  }
  if (failure.name === "AI_LoadAPIKeyError") return { kind: "config", message: oneLine(failure.message) };
  const code = (failure as { code?: unknown }).code;
  if (code === "ERR_INVALID_CHAR" || code === "ERR_INVALID_HTTP_TOKEN") {
    return {
      kind: "config",
      message: `a request header cannot be sent: ${oneLine(failure.message)} (look for a stray character, such as a trailing \\r, in the API key or the configured headers)`,
    };
  }
  return { kind: "bad-response", message: `the model server sent something mm cannot use: ${oneLine(failure.message)}` };
};

/** A 401 or 403, naming the variable the key was read from (set or not), and the server's words. */
const refusedKey = (status: number, detail: string, apiKey: string | undefined, apiKeyEnv: string): ModelError => {
  const words = status === 401 ? "refused" : "denied access with";
  const message = apiKey
    ? `the model server ${words} the key in ${apiKeyEnv} (${status}): ${detail} (check that variable's value, or model.apiKeyEnv)`
    : `the model server wants an API key (${status}): ${detail} (${apiKeyEnv} is not set; set it, or name another variable in model.apiKeyEnv)`;
  return { kind: "auth", message };
};

/** A quota, too-large or images-refused failure in one line the user can act on; `detail` the server's words. */
const classifiedError = (error: unknown, status: number | undefined, detail: string): ModelError | undefined => {
  const kind = errorClass(error);
  if (kind === undefined) return undefined;
  const words = detail !== "" ? detail : oneLine(bodyFields(error).message) || "no details";
  const code = status !== undefined ? ` (${status})` : "";
  if (kind === "images-refused") {
    return {
      kind: "images-refused",
      message: `the model server refused the images${code}: ${words} (model.vision is on, but this model does not read images)`,
    };
  }
  return kind === "quota"
    ? { kind: "quota", message: `the model server says the account is out of quota${code}: ${words} (check the plan and billing of the key's account)` }
    : {
        kind: "too-large",
        message: `the request is too large for the model${code}: ${words} (run /compact or /new, or lower model.contextWindow so mm compacts sooner)`,
      };
};

/** Why the connection failed, "mid-stream" when a started response broke, undefined when not a network error. */
const networkReason = (error: Failure): string | undefined => {
  let deepest: Error = error;
  let fetchFailed = false;
  for (const current of causesOf(error)) {
    deepest = current;
    const code = (current as Failure).code;
    if (typeof code === "string" && NETWORK_CODES[code]) return NETWORK_CODES[code];
    if (code === "UND_ERR_SOCKET" || current.message === "terminated") return "mid-stream";
    if (/^(fetch failed|failed to fetch|cannot connect to api)/i.test(current.message)) fetchFailed = true;
  }
  return fetchFailed ? oneLine(deepest.message) : undefined;
};

const detailOf = (failure: Failure): string => {
  const message = oneLine(failure.message);
  if (message !== "" && !/^(internal server error|bad gateway|service unavailable|too many requests|unauthorized)$/i.test(message)) {
    return message;
  }
  const body = oneLine(failure.responseBody ?? "");
  return body !== "" ? body : message || "no details";
};

const oneLine = (text: string): string => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL - 1)}…` : line;
};

const scrub = (message: string, apiKey: string | undefined): string => {
  const withoutKey = apiKey && apiKey.length >= 4 ? message.split(apiKey).join("[redacted]") : message;
  return withoutKey.replace(/\b(sk-[A-Za-z0-9_-]{4})[A-Za-z0-9_-]+/g, "$1…").replace(/(Bearer\s+)\S+/gi, "$1[redacted]");
};
