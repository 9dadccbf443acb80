/**
 * The Model port through the AI SDK's OpenAI provider: one `doStream` call per step on the provider's
 * language model (chat-completions or Responses), tools declared by their JSON Schemas so the core runs
 * them. `streamText` is not used: the core runs the tool loop itself, and `streamText`'s layers (prompt
 * validation, a chain of transform streams per delta) cost more CPU per streamed chunk than the whole
 * rest of the agent. What it did for us is done here: the prompt in the provider's form, tool inputs
 * parsed from JSON, and retries of 429 / 5xx / connection failures before the first chunk, honouring
 * `retry-after(-ms)` exactly as the AI SDK does. The provider is imported on the first step, not at
 * start-up; every failure ends the stream as an `error` event.
 */
import type { Model, ModelError, ModelEvent, ModelRequest, ToolSpec, Usage } from "@mm/core";
import type { OpenAIProvider } from "@ai-sdk/openai";
import type { ModelMessage } from "ai";
import { abortedError, explainError, type ErrorContext } from "./explain-error.js";
import { toModelPrompt } from "./to-model-messages.js";

export type AiSdkModelOptions = {
  /** The model name the server knows, e.g. `gpt-4.1-mini`. */
  readonly model: string;
  /** An OpenAI-compatible base URL ending in `/v1`; OpenAI's own when absent. */
  readonly baseURL?: string;
  /** Absent or empty: every step fails with a `config` error for OpenAI's own endpoint; other servers get a dummy key. */
  readonly apiKey?: string;
  /** `chat`: /chat/completions, which every OpenAI-compatible server speaks; `responses`: /responses with `store: false`. */
  readonly api: "chat" | "responses";
  /** Retries of 429, 5xx and connection failures (default 2), waiting 2 s, 4 s… unless the server sends `retry-after(-ms)`. */
  readonly maxRetries?: number;
  readonly fetch?: typeof fetch;
  readonly headers?: Readonly<Record<string, string>>;
};

export const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** Sent to servers other than OpenAI's when no key is configured: local servers usually ignore it. */
export const PLACEHOLDER_API_KEY = "not-needed";

export const NO_API_KEY: ModelError = {
  kind: "config",
  message: "no API key: set OPENAI_API_KEY (or the variable named by model.apiKeyEnv)",
};

/** The provider's language model (chat and Responses models share the LanguageModelV3 interface). */
type ProviderModel = ReturnType<OpenAIProvider["chat"]>;
type CallOptions = Parameters<ProviderModel["doStream"]>[0];
type ProviderPrompt = CallOptions["prompt"];
type ProviderMessage = ProviderPrompt[number];
type ProviderTools = NonNullable<CallOptions["tools"]>;
type StreamPart = Awaited<ReturnType<ProviderModel["doStream"]>>["stream"] extends ReadableStream<infer P> ? P : never;
type ProviderUsage = Extract<StreamPart, { type: "finish" }>["usage"];

/** The AI SDK's retry schedule: 2 s, then twice as long each time, unless the server says otherwise. */
const INITIAL_RETRY_DELAY_MS = 2_000;
const MAX_HEADER_DELAY_MS = 60_000;

const isOpenAIEndpoint = (baseURL: string | undefined): boolean => {
  if (baseURL === undefined || baseURL === "") return true;
  try {
    return new URL(baseURL).hostname === "api.openai.com";
  } catch {
    return false;
  }
};

const usageOf = (usage: ProviderUsage | undefined): Usage => {
  const input = usage?.inputTokens.total;
  const output = usage?.outputTokens.total;
  return { ...(input !== undefined ? { inputTokens: input } : {}), ...(output !== undefined ? { outputTokens: output } : {}) };
};

/** mm's conversation in the provider's prompt form, as `streamText` would have built it. */
export const toProviderPrompt = (system: string, messages: readonly ModelMessage[]): ProviderPrompt => {
  const prompt: ProviderMessage[] = [{ role: "system", content: system }];
  for (const message of messages) {
    switch (message.role) {
      case "user":
        prompt.push({
          role: "user",
          content: typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as never),
        });
        break;
      case "assistant":
        prompt.push({
          role: "assistant",
          content:
            typeof message.content === "string"
              ? [{ type: "text", text: message.content }]
              : (message.content.filter((part) => part.type !== "text" || part.text !== "") as never),
        });
        break;
      case "tool":
        prompt.push({ role: "tool", content: message.content as never });
        break;
      case "system":
        prompt.push({ role: "system", content: message.content });
        break;
    }
  }
  return prompt;
};

/** A tool call's arguments as the model sent them: parsed JSON, `{}` for none, the raw text when not JSON. */
const parseInput = (text: string): unknown => {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const isAbortError = (error: unknown): boolean =>
  (error instanceof Error || (typeof DOMException !== "undefined" && error instanceof DOMException)) &&
  (error.name === "AbortError" || error.name === "ResponseAborted" || error.name === "TimeoutError");

type CallFailure = Error & { readonly isRetryable?: boolean; readonly responseHeaders?: Record<string, string>; readonly cause?: unknown };

/** The wait before the next attempt: the server's `retry-after-ms` / `retry-after` when sane, else the backoff. */
const retryDelayMs = (error: unknown, backoffMs: number): number => {
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
    ms = Number.isNaN(seconds) ? Date.parse(retryAfter) - Date.now() : seconds * 1000;
  }
  return ms !== undefined && !Number.isNaN(ms) && ms >= 0 && (ms < MAX_HEADER_DELAY_MS || ms < backoffMs) ? ms : backoffMs;
};

/** What the AI SDK throws when retries ran out; explainError reads `lastError` and the number of `errors`. */
const retryError = (errors: readonly unknown[]): Error => {
  const last = errors.at(-1);
  const error = new Error(`Failed after ${errors.length} attempts. Last error: ${last instanceof Error ? last.message : String(last)}`);
  return Object.assign(error, { name: "AI_RetryError", lastError: last, errors: [...errors] });
};

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
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

/** Runs `attempt`, retrying retryable failures (429, 5xx, connection) up to `maxRetries` times, as the AI SDK does. */
const withRetries = async <T>(attempt: () => Promise<T>, maxRetries: number, signal: AbortSignal): Promise<T> => {
  const errors: unknown[] = [];
  let backoffMs = INITIAL_RETRY_DELAY_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (isAbortError(error) || maxRetries === 0) throw error;
      errors.push(error);
      if (errors.length > maxRetries) throw retryError(errors);
      if (!(error instanceof Error && (error as CallFailure).isRetryable === true)) {
        throw errors.length === 1 ? error : retryError(errors);
      }
      await sleep(retryDelayMs(error, backoffMs), signal);
      backoffMs *= 2;
    }
  }
};

export const aiSdkModel = (options: AiSdkModelOptions): Model => {
  const missingKey = !options.apiKey && isOpenAIEndpoint(options.baseURL);
  const apiKey = options.apiKey || PLACEHOLDER_API_KEY;
  const errorContext: ErrorContext = { baseURL: options.baseURL || OPENAI_BASE_URL, apiKey: options.apiKey };
  const maxRetries = options.maxRetries ?? 2;
  const providerOptions = options.api === "responses" ? { openai: { store: false } } : undefined;
  const toolSets = new WeakMap<readonly ToolSpec[], ProviderTools>();
  let provider: Promise<ProviderModel> | undefined;

  const loadProvider = async (): Promise<ProviderModel> => {
    const openai = await import("@ai-sdk/openai");
    const created = openai.createOpenAI({
      apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      ...(options.headers ? { headers: { ...options.headers } } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    return options.api === "chat" ? created.chat(options.model) : (created.responses(options.model) as unknown as ProviderModel);
  };

  const toolsOf = (specs: readonly ToolSpec[]): ProviderTools | undefined => {
    if (specs.length === 0) return undefined;
    let tools = toolSets.get(specs);
    if (!tools) {
      tools = specs.map((spec) => ({
        type: "function" as const,
        name: spec.name,
        description: spec.description,
        inputSchema: spec.inputSchema as ProviderTools[number] extends { inputSchema: infer S } ? S : never,
      }));
      toolSets.set(specs, tools);
    }
    return tools;
  };

  /** A 200 whose body is no event stream (a proxy's error page, a JSON error): said in one line. */
  const notAStream = (contentType: string): ModelError => ({
    kind: "bad-response",
    message: `the model server at ${errorContext.baseURL} answered with ${contentType.split(";")[0]}, not an event stream (a proxy or a wrong base URL?)`,
  });

  async function* step(request: ModelRequest): AsyncGenerator<ModelEvent> {
    const { signal } = request;
    const failed = (error: unknown): ModelEvent => ({
      type: "error",
      error: signal.aborted ? abortedError() : explainError(error, errorContext),
    });
    if (signal.aborted) return yield { type: "error", error: abortedError() };
    if (missingKey) return yield { type: "error", error: NO_API_KEY };
    let reader: ReadableStreamDefaultReader<StreamPart> | undefined;
    try {
      provider ??= loadProvider().catch((error: unknown) => {
        provider = undefined;
        throw error;
      });
      const model = await provider;
      const converted = toModelPrompt(request.system, request.messages);
      const tools = toolsOf(request.tools);
      const call: CallOptions = {
        prompt: toProviderPrompt(converted.system, converted.messages),
        ...(tools ? { tools, toolChoice: { type: "auto" } } : {}),
        abortSignal: signal,
        ...(providerOptions ? { providerOptions } : {}),
      };
      const { stream, response } = await withRetries(async () => model.doStream(call), maxRetries, signal);
      reader = stream.getReader();
      const contentType = response?.headers?.["content-type"];
      if (contentType !== undefined && !contentType.includes("text/event-stream")) {
        return yield { type: "error", error: notAStream(contentType) };
      }
      let finish: ModelEvent | undefined;
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        // Whatever follows the finish is read to the end, so the connection goes back to the pool.
        if (finish !== undefined) continue;
        switch (part.type) {
          case "text-delta":
            if (part.delta !== "") yield { type: "text", text: part.delta };
            break;
          case "tool-call":
            yield { type: "tool-call", id: part.toolCallId, name: part.toolName, input: parseInput(part.input) };
            break;
          case "finish":
            finish = { type: "finish", usage: usageOf(part.usage) };
            break;
          case "error":
            return yield failed(part.error);
        }
      }
      if (finish !== undefined) return yield finish;
      yield signal.aborted
        ? { type: "error", error: abortedError() }
        : { type: "error", error: { kind: "bad-response", message: "the model stream ended without finishing" } };
    } catch (error) {
      yield failed(error);
    } finally {
      // Ended early (a consumer's break, an error, the finish): let the response go.
      reader?.cancel().catch(() => undefined);
    }
  }

  return { step };
};
