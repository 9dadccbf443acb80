import { describe, expect, it } from "vitest";
import { errorClass } from "./error-class.js";
import { APICallError } from "@ai-sdk/provider";
import { explainError, explainFailure } from "./explain-error.js";
import { isPlainHttpAnswer, modelFailure } from "./model-failure.js";

const context = { baseURL: "http://localhost:11434/v1", apiKey: "sk-live-abcdefghijklmnop" };

const apiCallError = (message: string, fields: Omit<ConstructorParameters<typeof APICallError>[0], "message" | "url" | "requestBodyValues"> = {}): Error =>
  new APICallError({ message, url: "http://localhost:11434/v1/chat/completions", requestBodyValues: {}, ...fields });

const fetchFailed = (code: string, message: string): Error => new TypeError("fetch failed", { cause: Object.assign(new Error(message), { code }) });

describe("explainError", () => {
  it("names the host problem of a failed connection", () => {
    const error = apiCallError("Cannot connect to API: getaddrinfo ENOTFOUND nowhere", {
      cause: fetchFailed("ENOTFOUND", "getaddrinfo ENOTFOUND nowhere").cause,
      isRetryable: true,
    });
    expect(explainError(error, context)).toEqual({
      kind: "network",
      message: "cannot reach the model server at http://localhost:11434/v1: host not found",
    });
  });

  it("says why a port Node's fetch refuses cannot be reached", () => {
    const error = apiCallError("Cannot connect to API: bad port", {
      cause: new TypeError("fetch failed", { cause: new Error("bad port") }).cause,
      isRetryable: true,
    });
    expect(explainError(error, { baseURL: "http://127.0.0.1:6000/v1" })).toEqual({
      kind: "network",
      message: `cannot reach the model server at http://127.0.0.1:6000/v1: Node's fetch refuses port 6000 ("bad port", one of the ports browsers block); serve the model on another port`,
    });
  });

  it("suggests /v1 after a 404 from a base URL without it", () => {
    expect(explainError(apiCallError("page not found", { statusCode: 404 }), { baseURL: "http://127.0.0.1:11434/" }).message).toBe(
      "the model server answered 404: page not found (check model.name; model.baseURL usually ends in /v1: try http://127.0.0.1:11434/v1)",
    );
  });

  it("counts the attempts of retried failures", () => {
    const last = apiCallError("connect ECONNREFUSED", { cause: fetchFailed("ECONNREFUSED", "connect ECONNREFUSED").cause });
    expect(explainFailure({ kind: "retries-spent", attempts: 3, last: modelFailure(last) }, context).message).toBe(
      "cannot reach the model server at http://localhost:11434/v1: connection refused after 3 attempts",
    );
  });

  it("explains client errors with the server's message and a hint for 404", () => {
    expect(explainError(apiCallError("model 'nope' not found", { statusCode: 404 }), context)).toEqual({
      kind: "bad-response",
      message: "the model server answered 404: model 'nope' not found (check model.name and model.baseURL)",
    });
    expect(explainError(apiCallError("unsupported parameter: foo", { statusCode: 400 }), context)).toEqual({
      kind: "bad-response",
      message: "the model server rejected the request (400): unsupported parameter: foo",
    });
  });

  it("tells an exhausted quota and a request too large apart from rate limits, by the server's words", () => {
    const quota = apiCallError("You exceeded your current quota, please check your plan and billing details.", {
      statusCode: 429,
      responseBody: JSON.stringify({ error: { message: "You exceeded your current quota", type: "insufficient_quota", code: "insufficient_quota" } }),
      isRetryable: true,
    });
    expect(errorClass(quota)).toBe("quota");
    expect(explainError(quota, context)).toMatchObject({
      kind: "quota",
      message: expect.stringMatching(/^the model server says the account is out of quota \(429\): .*check the plan and billing/),
    });
    expect(explainError(quota, context).message).not.toMatch(/retries|rate-limiting/);
    const tooLarge = apiCallError("Request too large for gpt-4o on tokens per min (TPM): Limit 30000, Requested 45000.", {
      statusCode: 429,
      data: { error: { message: "Request too large for gpt-4o", type: "tokens", code: "rate_limit_exceeded" } },
      isRetryable: true,
    });
    expect(errorClass(tooLarge)).toBe("too-large");
    expect(explainError(tooLarge, context)).toMatchObject({ kind: "too-large", message: expect.stringContaining("run /compact or /new") });
    expect(errorClass(apiCallError("This model's maximum context length is 8192 tokens", { statusCode: 400 }))).toBe("too-large");
    expect(errorClass(apiCallError("Payload Too Large", { statusCode: 413 }))).toBe("too-large");
    expect(errorClass({ error: { message: "Insufficient balance", code: "insufficient_balance" } })).toBe("quota");
    expect(errorClass(apiCallError("Rate limit reached, please try again later.", { statusCode: 429 }))).toBeUndefined();
    expect(explainError(apiCallError("Rate limit reached", { statusCode: 429 }), context).message).toBe(
      "the model server is rate-limiting requests (429): Rate limit reached",
    );
  });

  it("tells a server refusing images apart, in the words of Ollama, vLLM, llama.cpp, OpenAI and DeepSeek", () => {
    const refusals = [
      apiCallError("this model does not support image input", { statusCode: 400 }),
      apiCallError("facebook/opt-125m is not a multimodal model None", { statusCode: 400 }),
      apiCallError("image input is not supported - hint: if this is unexpected, you may need to provide the mmproj", { statusCode: 400 }),
      apiCallError("Invalid content type. image_url is only supported by certain models.", { statusCode: 400 }),
      apiCallError("Failed to deserialize the JSON body into the target type: messages[1]: unknown variant `image_url`, expected `text`", { statusCode: 422 }),
    ];
    for (const error of refusals) expect(errorClass(error)).toBe("images-refused");
    expect(explainError(refusals[0], context)).toEqual({
      kind: "images-refused",
      message: "the model server refused the images (400): this model does not support image input (model.vision is on, but this model does not read images)",
    });
    expect(errorClass(apiCallError("registry.ollama.ai/library/llava does not support tools", { statusCode: 400 }))).toBeUndefined();
    expect(errorClass(apiCallError("this model does not support image input", { statusCode: 503 }))).toBeUndefined();
  });

  it("prefers the body over a bare status text", () => {
    const error = apiCallError("Bad Gateway", { statusCode: 502, responseBody: "<html>\n upstream down \n</html>" });
    expect(explainError(error, context)).toEqual({ kind: "server", message: "model server error 502: <html> upstream down </html>" });
  });

  it("never lets the key or a bearer token through, and stays on one line", () => {
    const error = apiCallError(`bad key ${context.apiKey}\nAuthorization: Bearer abc.def sk-other-1234567890`, { statusCode: 400 });
    const { message } = explainError(error, context);
    expect(message).not.toContain(context.apiKey);
    expect(message).not.toContain("abc.def");
    expect(message).not.toContain("sk-other-1234567890");
    expect(message).not.toContain("\n");
  });

  it("explains an error frame streamed after some output", () => {
    expect(explainError({ message: "overloaded", type: "server_error" }, context)).toEqual({
      kind: "server",
      message: "the model server failed mid-response: overloaded",
    });
  });

  it("treats aborts as aborted and unknown failures as bad responses", () => {
    expect(explainError(new DOMException("aborted", "AbortError"), context).kind).toBe("aborted");
    expect(explainError("weird", context)).toEqual({ kind: "bad-response", message: "model step failed: weird" });
  });
});

describe("explainError: what to do about it", () => {
  /** What Node's fetch throws for https:// against a plain-HTTP server (Node 22 and older). */
  const wrongVersion = (code: string): Error =>
    apiCallError("Cannot connect to API: fetch failed", {
      cause: new TypeError("fetch failed", {
        cause: Object.assign(new Error("803C86D9D17F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:ssl3_record.c:350:"), { code }),
      }),
      isRetryable: true,
    });

  it("says to use http:// when an https:// URL meets a plain-HTTP server", () => {
    for (const code of ["ERR_SSL_WRONG_VERSION_NUMBER", "EPROTO"]) {
      const error = wrongVersion(code);
      expect(isPlainHttpAnswer(error)).toBe(true);
      expect(explainError(error, { baseURL: "https://127.0.0.1:8000/v1" })).toEqual({
        kind: "network",
        message:
          'cannot reach the model server at https://127.0.0.1:8000/v1: it answers plain HTTP, not TLS ("wrong version number"); use http://, as in http://127.0.0.1:8000/v1',
      });
    }
    const retried = explainFailure({ kind: "retries-spent", attempts: 3, last: modelFailure(wrongVersion("ERR_SSL_WRONG_VERSION_NUMBER")) }, context);
    expect(retried.message).toContain('it answers plain HTTP, not TLS ("wrong version number")');
    expect(retried.message).not.toContain("attempts");
    expect(isPlainHttpAnswer(fetchFailed("ECONNREFUSED", "connect ECONNREFUSED"))).toBe(false);
  });

  it("names the variable that held a refused key, and says when none was set", () => {
    const refused = apiCallError("Incorrect API key provided", { statusCode: 401 });
    expect(explainError(refused, { ...context, apiKeyEnv: "GROQ_API_KEY" })).toEqual({
      kind: "auth",
      message: "the model server refused the key in GROQ_API_KEY (401): Incorrect API key provided (check that variable's value, or model.apiKeyEnv)",
    });
    expect(explainError(refused, context).message).toContain("refused the key in OPENAI_API_KEY (401)");
    expect(explainError(apiCallError("Unauthorized", { statusCode: 401, responseBody: "" }), { baseURL: context.baseURL }).message).toBe(
      "the model server wants an API key (401): Unauthorized (OPENAI_API_KEY is not set; set it, or name another variable in model.apiKeyEnv)",
    );
    expect(explainError(apiCallError("not allowed for this project", { statusCode: 403 }), { ...context, apiKeyEnv: "WORK_KEY" }).message).toBe(
      "the model server denied access with the key in WORK_KEY (403): not allowed for this project (check that variable's value, or model.apiKeyEnv)",
    );
    expect(explainError(apiCallError(`bad key ${context.apiKey}`, { statusCode: 401 }), context).message).not.toContain(context.apiKey);
  });
});
