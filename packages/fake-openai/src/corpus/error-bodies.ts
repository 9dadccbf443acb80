/**
 * Error answers in the shapes servers document: the status, the body, and what the user must read
 * (the start of the one-line explanation), and whether mm may retry it.
 */

export type ErrorBodyEntry = {
  readonly server: string;
  readonly shape: string;
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** What the editor's `internal error` says (a part of it). */
  readonly says: string;
  /** Whether the request is tried again before failing. */
  readonly retried: boolean;
};

export const ERROR_BODIES: readonly ErrorBodyEntry[] = [
  {
    server: "OpenAI",
    shape: "429 insufficient_quota",
    status: 429,
    body: {
      error: {
        message: "You exceeded your current quota, please check your plan and billing details.",
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      },
    },
    says: "the model server says the account is out of quota (429)",
    retried: false,
  },
  {
    server: "OpenAI",
    shape: "429 request too large for the tokens-per-minute limit",
    status: 429,
    body: {
      error: {
        message: "Request too large for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Requested 41230.",
        type: "tokens",
        param: null,
        code: "rate_limit_exceeded",
      },
    },
    says: "the request is too large for the model (429)",
    retried: false,
  },
  {
    server: "OpenAI",
    shape: "400 context_length_exceeded",
    status: 400,
    body: {
      error: {
        message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
    says: "the request is too large for the model (400)",
    retried: false,
  },
  {
    server: "DeepSeek",
    shape: "402 Insufficient Balance",
    status: 402,
    body: { error: { message: "Insufficient Balance", type: "unknown_error", param: null, code: "invalid_request_error" } },
    says: "the model server says the account is out of quota (402)",
    retried: false,
  },
  {
    server: "OpenRouter",
    shape: "402 with a numeric code",
    status: 402,
    body: { error: { code: 402, message: "Insufficient credits. Add more using https://openrouter.ai/settings/credits" } },
    says: "out of quota (402)",
    retried: false,
  },
  {
    server: "vLLM",
    shape: "400 with the error at the top level (object: error)",
    status: 400,
    body: {
      object: "error",
      message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
      type: "BadRequestError",
      param: null,
      code: 400,
    },
    says: "the request is too large for the model (400)",
    retried: false,
  },
  {
    server: "Groq",
    shape: "413 request too large",
    status: 413,
    body: {
      error: {
        message: "Request too large for model `llama-3.3-70b-versatile` on tokens per minute (TPM): Limit 6000, Requested 9000.",
        type: "tokens",
        code: "rate_limit_exceeded",
      },
    },
    says: "the request is too large for the model (413)",
    retried: false,
  },
  {
    server: "Ollama",
    shape: "404 model not found",
    status: 404,
    body: { error: { message: 'model "qwen9" not found, try pulling it first', type: "api_error", param: null, code: null } },
    says: 'the model server answered 404: model "qwen9" not found, try pulling it first',
    retried: false,
  },
  {
    server: "OpenAI",
    shape: "429 rate limit with retry-after-ms",
    status: 429,
    body: {
      error: {
        message: "Rate limit reached for gpt-4.1-mini on requests per min (RPM): Limit 3, Used 3, Requested 1.",
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      },
    },
    headers: { "retry-after-ms": "20" },
    says: "the model server is rate-limiting requests (429), retries exhausted after 3 attempts",
    retried: true,
  },
];
