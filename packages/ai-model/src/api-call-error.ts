/**
 * The failures of a chat-completions request as values shaped like the AI SDK's (`AI_APICallError`
 * and friends), made the way its provider made them, so `explain-error.ts` and `retry.ts` read them
 * alike: the status and the server's own message of an HTTP error, `isRetryable` for 408/409/429/5xx
 * and connection failures, the response headers for `retry-after(-ms)`, an error frame streamed
 * before any output as a failed call with the status its code names.
 */
import type { SentResponse } from "./light-response.js";

/** What the AI SDK's `APICallError` carries that mm reads. */
export class ApiCallError extends Error {
  readonly url: string;
  readonly statusCode: number | undefined;
  readonly responseHeaders: Record<string, string> | undefined;
  readonly responseBody: string | undefined;
  readonly isRetryable: boolean;
  readonly data: unknown;

  constructor(fields: {
    readonly message: string;
    readonly url: string;
    readonly statusCode?: number | undefined;
    readonly responseHeaders?: Record<string, string> | undefined;
    readonly responseBody?: string | undefined;
    readonly cause?: unknown;
    readonly isRetryable?: boolean | undefined;
    readonly data?: unknown;
  }) {
    super(fields.message, fields.cause !== undefined ? { cause: fields.cause } : undefined);
    this.name = "AI_APICallError";
    this.url = fields.url;
    this.statusCode = fields.statusCode;
    this.responseHeaders = fields.responseHeaders;
    this.responseBody = fields.responseBody;
    this.isRetryable = fields.isRetryable ?? isRetryableStatus(fields.statusCode);
    this.data = fields.data;
  }
}

/** A malformed part of an answer (the AI SDK's JSON parse, type validation and response data errors). */
export const invalidAnswer = (name: "AI_JSONParseError" | "AI_TypeValidationError" | "AI_InvalidResponseDataError" | "AI_EmptyResponseBodyError", message: string): Error =>
  Object.assign(new Error(message), { name });

/** 408, 409, 429 and 5xx: worth another try. */
export const isRetryableStatus = (status: number | undefined): boolean =>
  status !== undefined && (status === 408 || status === 409 || status === 429 || status >= 500);

const RETRYABLE_NETWORK_CODES = new Set([
  "ConnectionRefused",
  "ConnectionClosed",
  "FailedToOpenSocket",
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** An abort, a timeout signal, Next.js's abort: passed through untouched. */
export const isAbortError = (error: unknown): boolean =>
  (error instanceof Error || (typeof DOMException !== "undefined" && error instanceof DOMException)) &&
  (error.name === "AbortError" || error.name === "ResponseAborted" || error.name === "TimeoutError");

const networkCodeIn = (error: unknown): boolean => {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); current = current.cause) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && RETRYABLE_NETWORK_CODES.has(code)) return true;
  }
  return false;
};

/** A request that got no answer, or a body that broke off, as the AI SDK reports it (`handleFetchError`). */
export const fetchFailure = (error: unknown, url: string): unknown => {
  if (isAbortError(error)) return error;
  if (error instanceof TypeError && /^(fetch failed|failed to fetch)$/i.test(error.message) && error.cause != null) {
    return new ApiCallError({ message: `Cannot connect to API: ${(error.cause as Error).message}`, cause: error.cause, url, isRetryable: true });
  }
  if (!networkCodeIn(error)) return error;
  if (error instanceof ApiCallError) {
    return new ApiCallError({ ...error, message: error.message, cause: error.cause, isRetryable: true });
  }
  return new ApiCallError({ message: `Cannot connect to API: ${error instanceof Error ? error.message : String(error)}`, cause: error, url, isRetryable: true });
};

/** A 200 whose body could not be read to its end: the AI SDK's wrapping of the body stream's error. */
export const bodyFailure = (error: unknown, url: string, response: Pick<SentResponse, "status" | "headers">): unknown =>
  isAbortError(error)
    ? error
    : fetchFailure(
        new ApiCallError({ message: "Failed to process successful response", cause: error, statusCode: response.status, url, responseHeaders: headerRecord(response.headers) }),
        url,
      );

/** The response's headers as a plain record (lowercase names). */
export const headerRecord = (headers: SentResponse["headers"]): Record<string, string> => {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => (record[name] = value));
  return record;
};

type ErrorData = { readonly error: { readonly message: string } };

const isErrorData = (value: unknown): value is ErrorData => {
  const error = typeof value === "object" && value !== null ? (value as { error?: unknown }).error : undefined;
  return typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string";
};

/** A non-2xx answer: its status, and the server's `error.message` when the body is OpenAI's error JSON, else the status text. */
export const httpFailure = async (response: SentResponse, url: string): Promise<ApiCallError> => {
  const responseHeaders = headerRecord(response.headers);
  let body: string;
  try {
    body = await response.text();
  } catch (cause) {
    if (isAbortError(cause)) throw cause;
    return new ApiCallError({ message: "Failed to process error response", cause, statusCode: response.status, url, responseHeaders });
  }
  let data: unknown;
  if (body.trim() !== "") {
    try {
      data = JSON.parse(body);
    } catch {
      data = undefined;
    }
  }
  const known = isErrorData(data) ? data : undefined;
  return new ApiCallError({
    message: known !== undefined ? known.error.message : response.statusText,
    url,
    statusCode: response.status,
    responseHeaders,
    responseBody: body,
    ...(known !== undefined ? { data: known } : {}),
  });
};

/** The error object of an `{"error": …}` frame. */
export type StreamErrorFrame = { readonly message: string; readonly type?: unknown; readonly param?: unknown; readonly code?: unknown };

const isHttpErrorStatus = (value: number): boolean => Number.isInteger(value) && value >= 400 && value <= 599;

/** The status an error frame stands for: its numeric code, else what its code and type say (the provider's rule). */
const statusOfFrame = (error: { readonly code?: unknown; readonly type?: unknown }): number => {
  if (typeof error.code === "number" && isHttpErrorStatus(error.code)) return error.code;
  if (typeof error.code === "string" && /^\d{3}$/.test(error.code) && isHttpErrorStatus(Number(error.code))) return Number(error.code);
  const words = [error.code, error.type].filter((v) => typeof v === "string" || typeof v === "number").join(" ").toLowerCase();
  if (words.includes("insufficient_quota") || words.includes("rate_limit")) return 429;
  if (words.includes("authentication")) return 401;
  if (words.includes("permission")) return 403;
  if (words.includes("not_found")) return 404;
  if (words.includes("invalid") || words.includes("bad_request") || words.includes("context_length")) return 400;
  if (words.includes("overload")) return 503;
  if (words.includes("timeout")) return 504;
  return 500;
};

/**
 * An error frame streamed before any output, as the provider throws it: a failed call (retried when
 * its status is), its message the frame's own when the frame reads as an OpenAI error.
 */
export const streamFailure = (frame: StreamErrorFrame, url: string, responseHeaders: Record<string, string>): ApiCallError => {
  // The provider's reading of a frame (`parseStreamError`): an OpenAI error has a type, a code or a param.
  const known = frame.type !== "response.failed" && (typeof frame.type === "string" || "code" in frame || "param" in frame);
  const code = typeof frame.code === "string" || typeof frame.code === "number" ? frame.code : undefined;
  const type = typeof frame.type === "string" ? frame.type : undefined;
  const statusCode = known ? statusOfFrame({ code, type }) : 500;
  const quota = code === "insufficient_quota" || type === "insufficient_quota";
  return new ApiCallError({
    message: known ? frame.message : "OpenAI stream failed before any output was generated",
    url,
    statusCode,
    responseHeaders,
    responseBody: JSON.stringify(frame),
    data: frame,
    isRetryable: known ? !quota && isRetryableStatus(statusCode) : true,
  });
};
