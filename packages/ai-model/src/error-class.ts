/**
 * What a model server's error says it is, from its status, its body's `code`/`type` fields and its
 * words: an exhausted quota, a request too large for the model, or images the model does not read.
 * None of them is helped by a retry; each is explained in its own words (explain-error.ts).
 */

/** An AI SDK API call's failure, as far as its class is read. */
type ApiFailure = Error & { readonly statusCode?: number; readonly responseBody?: string; readonly data?: unknown };

/** What the server's error says it is, whatever its status: no retry helps either. */
export type ErrorClass = "quota" | "too-large" | "images-refused";

const QUOTA_CODES = new Set(["insufficient_quota", "quota_exceeded", "billing_hard_limit_reached", "insufficient_balance", "payment_required"]);
const TOO_LARGE_CODES = new Set(["context_length_exceeded", "request_too_large", "string_above_max_length", "context_window_exceeded", "tokens_limit_reached"]);
const QUOTA_WORDS = /exceeded your current quota|insufficient[_ ](quota|balance)|quota (exceeded|exhausted)|out of credits|credit balance is too low|billing/i;
const TOO_LARGE_WORDS =
  /maximum context length|context[_ ]length|context window|prompt is too long|too many (input )?tokens|request too large|reduce the length|input is too long|exceeds? the (model'?s? )?(max|maximum|context)/i;

/**
 * A server refusing the images of a request (the model reads none): Ollama's "does not support image
 * input", vLLM's "is not a multimodal model", llama.cpp's "image input is not supported", OpenAI's
 * "image_url is only supported by certain models", DeepSeek's "unknown variant `image_url`".
 */
const IMAGES_REFUSED_WORDS =
  /(does not|doesn't|do not|cannot) (support|accept|handle) (image|images|vision|multimodal|multi-modal)|not a multimodal model|image (input|content)s? (is|are) not supported|image_url is only supported|unknown variant `?image_url|vision (is )?not (supported|enabled)|images? (is|are) not supported/i;

/** The `code` and `type` fields of an OpenAI-style error body (`{ error: { code, type, message } }`), and its message. */
export const bodyFields = (value: unknown): { codes: string[]; message: string } => {
  const record = (v: unknown): Record<string, unknown> | undefined => (typeof v === "object" && v !== null ? (v as Record<string, unknown>) : undefined);
  const outer = record(value);
  const inner = record(outer?.error) ?? outer;
  const codes = [inner?.code, inner?.type, outer?.code, outer?.type].filter((c): c is string => typeof c === "string").map((c) => c.toLowerCase());
  return { codes, message: typeof inner?.message === "string" ? inner.message : typeof outer?.message === "string" ? outer.message : "" };
};

const parsedBody = (text: string | undefined): unknown => {
  if (text === undefined || text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
};

/** Whether `error` (an API call's failure, or an error the server streamed) is an exhausted quota, a request too large, or images refused. */
export const errorClass = (error: unknown): ErrorClass | undefined => {
  const failure = error instanceof Error ? (error as ApiFailure) : undefined;
  const status = failure?.statusCode;
  const fromBody = bodyFields(failure !== undefined ? (failure.data ?? parsedBody(failure.responseBody)) : error);
  const message = `${fromBody.message} ${failure?.message ?? ""}`;
  if (status === 402 || fromBody.codes.some((c) => QUOTA_CODES.has(c)) || QUOTA_WORDS.test(message)) return "quota";
  if (status === 413 || fromBody.codes.some((c) => TOO_LARGE_CODES.has(c)) || TOO_LARGE_WORDS.test(message)) return "too-large";
  if ((status === undefined || (status >= 400 && status < 500)) && IMAGES_REFUSED_WORDS.test(message)) return "images-refused";
  return undefined;
};
