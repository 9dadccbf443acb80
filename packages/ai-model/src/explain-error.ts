/**
 * A model request's failure ({@link ModelFailure}, read in model-failure.ts) as mm's `ModelError`: a
 * kind and one line fit for the user, matched once here; never lets the API key through.
 */
import type { ModelError } from "@mm/core";
import { type ModelFailure, modelFailure } from "./model-failure.js";

/**
 * Where the step went and with what key: for the message, and for what must never be in it.
 * `apiKeyEnv`: the variable the key was read from (`OPENAI_API_KEY` when absent), named when refused.
 */
export type ErrorContext = { readonly baseURL: string; readonly apiKey?: string | undefined; readonly apiKeyEnv?: string | undefined };

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

/** The error of a step ended by its signal. */
export const abortedError = (): ModelError => ({ kind: "aborted", message: "the model step was cancelled" });

/** `error` as a ModelError: its kind and one line for the user, without the key. */
export const explainError = (error: unknown, context: ErrorContext): ModelError => explainFailure(modelFailure(error), context);

/** `failure` as a ModelError: its kind and one line for the user, without the key. */
export const explainFailure = (failure: ModelFailure, context: ErrorContext): ModelError => {
  const explained = explain(failure, context, 1);
  return { kind: explained.kind, message: scrub(explained.message, context.apiKey) };
};

/** The one match of a failure to its line; `attempts` counted in the line of what retries may have met. */
const explain = (failure: ModelFailure, context: ErrorContext, attempts: number): ModelError => {
  const { baseURL, apiKey, apiKeyEnv = "OPENAI_API_KEY" } = context;
  const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
  switch (failure.kind) {
    case "aborted":
      return abortedError();
    case "timeout":
      return { kind: "network", message: `the model server at ${baseURL} timed out` };
    case "plain-http":
      return {
        kind: "network",
        message: `cannot reach the model server at ${baseURL}: it answers plain HTTP, not TLS ("wrong version number"); use http://, as in ${plainHttpURL(baseURL)}`,
      };
    case "bad-port":
      return {
        kind: "network",
        message: `cannot reach the model server at ${baseURL}: Node's fetch refuses port ${portOf(baseURL)} ("bad port", one of the ports browsers block); serve the model on another port`,
      };
    case "answer-too-large":
      return { kind: "bad-response", message: `the model server at ${baseURL} ${failure.message}; stopped, not retried` };
    case "redirect-refused": {
      const hint = failure.why === "too-many" || failure.why === "credentials" ? "" : " (if that is the model server, set model.baseURL to its URL)";
      return { kind: "config", message: `the model server at ${baseURL} ${failure.message}${hint}` };
    }
    case "retries-spent":
      return explain(failure.last, context, failure.attempts);
    // The server closed the stream itself, cleanly, before it finished the answer (no finish reason, no
    // response.completed): not a broken connection, though still an error.
    case "stream-ended":
      return { kind: "network", message: `the model server at ${baseURL} ended the stream before finishing the answer${tries}` };
    case "stream-broken":
      return {
        kind: "network",
        message: `the connection to the model server at ${baseURL} broke before the answer was finished${failure.reason !== "mid-stream" ? ` (${failure.reason})` : ""}${tries}`,
      };
    case "too-much-output":
      return { kind: "bad-response", message: `the model's output passed ${failure.limit} characters in one step; stopped` };
    case "refused":
      return refusedError(failure);
    case "http":
      return httpError(failure.status, failure.detail, attempts, { baseURL, apiKey, apiKeyEnv });
    case "broke-mid-response":
      return { kind: "network", message: `the connection to the model server at ${baseURL} broke mid-response` };
    case "unreachable":
      return { kind: "network", message: `cannot reach the model server at ${baseURL}: ${failure.reason}${tries}` };
    case "streamed-error":
      return { kind: "server", message: `the model server failed mid-response: ${failure.message}` };
    case "missing-key":
      return { kind: "config", message: failure.message };
    case "bad-header":
      return {
        kind: "config",
        message: `a request header cannot be sent: ${failure.message} (look for a stray character, such as a trailing \\r, in the API key or the configured headers)`,
      };
    case "unusable":
      return { kind: "bad-response", message: `the model server sent something mm cannot use: ${failure.message}` };
    case "odd-value":
      return { kind: "bad-response", message: `model step failed: ${failure.text}` };
  }
};

/** An error status in one line: a refused key, rate limiting, a server error, a 404 with a hint, any other refusal. */
const httpError = (
  status: number,
  detail: string,
  attempts: number,
  { baseURL, apiKey, apiKeyEnv }: ErrorContext & { readonly apiKeyEnv: string },
): ModelError => {
  const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
  if (status === 401 || status === 403) return refusedKey(status, detail, apiKey, apiKeyEnv);
  if (status === 429) {
    return { kind: "rate-limit", message: `the model server is rate-limiting requests (429)${attempts > 1 ? `, retries exhausted${tries}` : ""}: ${detail}` };
  }
  if (status >= 500) return { kind: "server", message: `model server error ${status}${tries}: ${detail}` };
  if (status === 404) return { kind: "bad-response", message: `the model server answered 404: ${detail} (${notFoundHint(baseURL)})` };
  return { kind: "bad-response", message: `the model server rejected the request (${status}): ${detail}` };
};

/** A 401 or 403, naming the variable the key was read from (set or not), and the server's words. */
const refusedKey = (status: number, detail: string, apiKey: string | undefined, apiKeyEnv: string): ModelError => {
  const words = status === 401 ? "refused" : "denied access with";
  const message = apiKey
    ? `the model server ${words} the key in ${apiKeyEnv} (${status}): ${detail} (check that variable's value, or model.apiKeyEnv)`
    : `the model server wants an API key (${status}): ${detail} (${apiKeyEnv} is not set; set it, or name another variable in model.apiKeyEnv)`;
  return { kind: "auth", message };
};

/** A quota, too-large or images-refused failure in one line the user can act on. */
const refusedError = (failure: Extract<ModelFailure, { kind: "refused" }>): ModelError => {
  const code = failure.status !== undefined ? ` (${failure.status})` : "";
  const words = failure.detail;
  if (failure.class === "images-refused") {
    return {
      kind: "images-refused",
      message: `the model server refused the images${code}: ${words} (model.vision is on, but this model does not read images)`,
    };
  }
  return failure.class === "quota"
    ? { kind: "quota", message: `the model server says the account is out of quota${code}: ${words} (check the plan and billing of the key's account)` }
    : {
        kind: "too-large",
        message: `the request is too large for the model${code}: ${words} (run /compact or /new, or lower model.contextWindow so mm compacts sooner)`,
      };
};

const scrub = (message: string, apiKey: string | undefined): string => {
  const withoutKey = apiKey && apiKey.length >= 4 ? message.split(apiKey).join("[redacted]") : message;
  return withoutKey.replace(/\b(sk-[A-Za-z0-9_-]{4})[A-Za-z0-9_-]+/g, "$1…").replace(/(Bearer\s+)\S+/gi, "$1[redacted]");
};
