/**
 * The Model port on an OpenAI-compatible server, through the AI SDK: one `doStream` call per step
 * on the provider's language model (provider-models.ts), tools declared by their JSON Schemas so the
 * core runs them. `streamText` is not used: the core runs the tool loop itself, and one step needs
 * only the stream, read here into mm's events (step-parts.ts).
 *
 * A step is retried (retry.ts: 2 s, then 4 s, or the server's `retry-after`) while nothing of it has
 * been shown: a refused connection, a 408/409/429/5xx, a stream that broke or ended before the server
 * finished it. An exhausted quota, a request too large for the model, an answer past its bound and a
 * redirect to another origin (model-fetch.ts) are not retried. Every
 * failure ends the stream as one `error` event explained in one line (explain-error.ts); the port's
 * contract holds: `step` never throws, and ends with exactly one `finish` or `error`.
 */
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3FunctionTool, LanguageModelV3StreamPart, JSONSchema7 } from "@ai-sdk/provider";
import type { Model, ModelError, ModelEvent, ModelRequest, ToolSpec } from "@mm/core";
import { chatProviderFor, type ChatProvider } from "./chat-provider.js";
import { abortedError, explainError, explainFailure, type ErrorContext } from "./explain-error.js";
import { callFacts, type ModelFailure, modelFailure, StepFailed } from "./model-failure.js";
import { isOpenAIHost } from "./openai-host.js";
import { COMPATIBLE_PROVIDER, providerModels } from "./provider-models.js";
import type { ProxySettings } from "./proxy.js";
import { isReasoningModelId } from "./reasoning-models.js";
import { withRetries, type RetryNotice } from "./retry.js";
import { MAX_STEP_OUTPUT_CHARS } from "./output-cap.js";
import { stepParts, type StepFailure } from "./step-parts.js";
import { timedStep } from "./timed-fetch.js";
import { toProviderPrompt } from "./to-provider-prompt.js";

/** Options of {@link aiSdkModel}. */
export type AiSdkModelOptions = {
  /** The model name the server knows, e.g. `gpt-4.1-mini`. */
  readonly model: string;
  /** An OpenAI-compatible base URL ending in `/v1`; OpenAI's own when absent. */
  readonly baseURL?: string;
  /** Absent or empty: every step fails with a `config` error for OpenAI's own endpoint; other servers get a dummy key. */
  readonly apiKey?: string | undefined;
  /** The variable the key is read from, named when it is missing or refused; `OPENAI_API_KEY` when absent. */
  readonly apiKeyEnv?: string | undefined;
  /** `chat`: /chat/completions, which every OpenAI-compatible server speaks; `responses`: /responses with `store: false`. */
  readonly api: "chat" | "responses";
  /** The AI SDK provider that speaks chat-completions (chat-provider.ts); `auto` (by the base URL's host) when absent. */
  readonly provider?: ChatProvider | undefined;
  /** Retries of 429, 5xx, connection failures and cut-off streams (default 2), waiting 2 s, 4 s… unless the server sends `retry-after(-ms)`. */
  readonly maxRetries?: number;
  /** How requests are sent; the global fetch (through `proxy` when set) when absent. */
  readonly fetch?: typeof fetch;
  /** The environment's proxy (proxy.ts `proxySettings`); requests go direct when absent. */
  readonly proxy?: ProxySettings | undefined;
  readonly headers?: Readonly<Record<string, string>>;
  /** The tag whose contents in the answer are the model's reasoning (`think`, the default); empty: none. */
  readonly reasoningTag?: string;
  /** The output of one step, in characters, past which it is stopped (default {@link MAX_STEP_OUTPUT_CHARS}). */
  readonly maxOutputChars?: number;
  /** Waits between retries; a timer when absent (tests pass one that does not wait). */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** A line for the operator's log: each retry, with its cause and delay. */
  readonly log?: (line: string) => void;
  /** A line for the operator's debug log: each request's size and timing, each step's timing and tokens. */
  readonly debug?: (line: string) => void;
};

/** OpenAI's own endpoint, used when no base URL is given. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";
/** Sent to servers other than OpenAI's when no key is configured: local servers usually ignore it. */
export const PLACEHOLDER_API_KEY = "not-needed";

/** What every step of OpenAI's own endpoint fails with when no key is set in `apiKeyEnv`. */
export const noApiKey = (apiKeyEnv = "OPENAI_API_KEY"): ModelError => ({
  kind: "config",
  message: `no API key: set ${apiKeyEnv}${apiKeyEnv === "OPENAI_API_KEY" ? " (or the variable named by model.apiKeyEnv)" : " (the variable model.apiKeyEnv names)"}`,
});

/** {@link noApiKey} for the default variable. */
export const NO_API_KEY: ModelError = noApiKey();

/** `model server answered 500, retry 1/2 in 2 s`, or the failure's own words. */
export const retryLine = (notice: RetryNotice, context: ErrorContext): string => {
  const status = callFacts(notice.failure)?.status;
  const cause = status !== undefined ? `model server answered ${status}` : explainFailure(notice.failure, context).message;
  const ms = Math.round(notice.delayMs);
  const delay = ms < 1000 ? `${ms} ms` : `${Number.isInteger(ms / 1000) ? ms / 1000 : (ms / 1000).toFixed(1)} s`;
  return `${cause}, retry ${notice.retry}/${notice.of} in ${delay}`;
};

/** An attempt's failure, thrown to the retries: a stream that ended unfinished is retried while nothing was shown. */
const stepFailure = (failure: StepFailure): StepFailed => {
  const read: ModelFailure =
    failure.kind === "unfinished"
      ? { kind: "stream-ended" }
      : failure.kind === "too-much-output"
        ? { kind: "too-much-output", limit: failure.limit }
        : modelFailure(failure.error);
  return new StepFailed(read);
};

const toolsOf = (specs: readonly ToolSpec[]): LanguageModelV3FunctionTool[] =>
  specs.map((spec) => ({
    type: "function" as const,
    name: spec.name,
    description: spec.description,
    // The core's schemas are JSON Schema documents; the provider types them as JSONSchema7.
    inputSchema: spec.inputSchema as JSONSchema7,
  }));

/** The Model port on an OpenAI-compatible server (see the module comment). Its `step` never throws. */
export const aiSdkModel = (options: AiSdkModelOptions): Model => {
  const baseURL = options.baseURL || OPENAI_BASE_URL;
  const missingKey = !options.apiKey && isOpenAIHost(baseURL);
  const errorContext: ErrorContext = { baseURL, apiKey: options.apiKey, apiKeyEnv: options.apiKeyEnv };
  const maxRetries = options.maxRetries ?? 2;
  const maxOutputChars = options.maxOutputChars ?? MAX_STEP_OUTPUT_CHARS;
  // The model's reasoning goes back to the Responses API (with its item), and to Moonshot, which asks
  // for a thinking model's `reasoning_content` with its tool calls; other chat servers get none.
  const sendsReasoning = options.api === "responses" || chatProviderFor(baseURL, options.provider) === "moonshotai";
  const modelsOf = providerModels({
    api: options.api,
    baseURL,
    apiKey: options.apiKey || PLACEHOLDER_API_KEY,
    provider: options.provider,
    headers: options.headers,
    fetch: options.fetch,
    proxy: options.proxy,
    reasoningTag: options.reasoningTag ?? "think",
    debug: options.debug,
  });
  const logRetry = (notice: RetryNotice): void => options.log?.(retryLine(notice, errorContext));
  const toolSets = new WeakMap<readonly ToolSpec[], LanguageModelV3FunctionTool[]>();
  const toolsFor = (specs: readonly ToolSpec[]): LanguageModelV3FunctionTool[] | undefined => {
    if (specs.length === 0) return undefined;
    let tools = toolSets.get(specs);
    if (tools === undefined) toolSets.set(specs, (tools = toolsOf(specs)));
    return tools;
  };
  /**
   * Responses: nothing stored server-side; reasoning models asked for summaries (and their encrypted
   * reasoning). A session's reasoning effort goes as the AI SDK's `reasoningEffort`, under each
   * OpenAI-shaped provider's key (`reasoning_effort` on chat servers, `reasoning.effort` on the Responses API).
   */
  const providerOptionsFor = (modelId: string, effort: string | undefined): Pick<LanguageModelV3CallOptions, "providerOptions"> => {
    const effortOption = effort !== undefined ? { reasoningEffort: effort } : {};
    // An effort is asked for only of a model said to reason (`model.reasoning`): OpenAI's provider is told so
    // (`forceReasoning`), else it drops the effort of an id it does not know as a reasoning model.
    const openaiEffort = effort !== undefined ? { ...effortOption, forceReasoning: true } : {};
    if (options.api === "responses")
      return { providerOptions: { openai: { store: false, ...(isReasoningModelId(modelId) ? { reasoningSummary: "auto" } : {}), ...openaiEffort } } };
    return effort === undefined ? {} : { providerOptions: { openai: openaiEffort, [COMPATIBLE_PROVIDER]: effortOption } };
  };

  /** A 200 whose body is no event stream (a proxy's error page, a JSON error): said in one line. */
  const notAStream = (contentType: string): ModelError => ({
    kind: "bad-response",
    message: `the model server at ${baseURL} answered with ${contentType.split(";")[0]}, not an event stream (a proxy or a wrong base URL?)`,
  });

  async function* step(request: ModelRequest): AsyncGenerator<ModelEvent> {
    const { signal } = request;
    if (signal.aborted) return yield { type: "error", error: abortedError() };
    if (missingKey) return yield { type: "error", error: noApiKey(options.apiKeyEnv) };
    if (!URL.canParse(baseURL))
      return yield { type: "error", error: { kind: "config", message: `the model's base URL ${JSON.stringify(baseURL)} is not a URL` } };
    // Stops the request when the step must end early (too much output), as the editor's cancel does.
    const own = new AbortController();
    const abortSignal = AbortSignal.any([signal, own.signal]);
    const failed = (failure: ModelFailure): ModelEvent => ({ type: "error", error: signal.aborted ? abortedError() : explainFailure(failure, errorContext) });
    let model: LanguageModelV3;
    try {
      model = await modelsOf(request.model ?? options.model);
    } catch (error) {
      return yield {
        type: "error",
        error: { kind: "config", message: `the AI SDK could not be loaded: ${error instanceof Error ? error.message : String(error)}` },
      };
    }
    const tools = toolsFor(request.tools);
    const call: LanguageModelV3CallOptions = {
      prompt: toProviderPrompt(request.system, request.messages, { imagesInToolResults: options.api === "responses", reasoning: sendsReasoning }),
      ...(tools ? { tools, toolChoice: { type: "auto" } } : {}),
      abortSignal,
      // The raw chunks say whether the server finished the answer, and carry reasoning the provider drops.
      includeRawChunks: true,
      ...providerOptionsFor(request.model ?? options.model, request.effort),
    };
    let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
    let parts = stepParts(maxOutputChars);
    /** Reads parts until there is something to show, the stream ends, or it fails (thrown). */
    const pump = async (): Promise<{ readonly events: readonly ModelEvent[]; readonly done: boolean }> => {
      for (;;) {
        let next: Awaited<ReturnType<ReadableStreamDefaultReader<LanguageModelV3StreamPart>["read"]>>;
        try {
          next = await reader!.read();
        } catch (error) {
          // A read that failed (a socket dropped mid-answer) is retried while nothing was shown; a stream
          // past its bound (model-fetch.ts) never: the same server would send the same.
          throw new StepFailed(modelFailure(error, "read"));
        }
        if (next.done) return { events: [], done: true };
        const outcome = parts.take(next.value);
        if (outcome.failure !== undefined) {
          if (outcome.failure.kind === "too-much-output") own.abort();
          // What came with the failure is shown before it (the core keeps text, drops the calls).
          if (outcome.events.length > 0) pending = outcome.events;
          throw stepFailure(outcome.failure);
        }
        if (outcome.events.length > 0) return { events: outcome.events, done: false };
      }
    };
    let pending: readonly ModelEvent[] = [];
    /** The attempt's end once its stream is done: its calls and finish (errors after a cut-off to the log), or a failure thrown. */
    const ended = (): readonly ModelEvent[] => {
      const end = parts.end();
      if ("failure" in end) throw stepFailure(end.failure);
      for (const error of parts.ignored) {
        const words = parts.cutOff === "content-filter" ? "stopped by its content filter" : "cut off at the model's output limit";
        options.log?.(`the model server sent an error after the answer was ${words}; the answer ends there: ${explainError(error, errorContext).message}`);
      }
      return end.finish;
    };
    try {
      // An attempt: the request, then its stream up to the first thing to show (or its end).
      const attempted = await withRetries(
        async () => {
          reader?.cancel().catch(() => undefined);
          parts = stepParts(maxOutputChars);
          pending = [];
          const { stream, response } = await model.doStream(call);
          reader = stream.getReader();
          const contentType = response?.headers?.["content-type"];
          if (contentType !== undefined && !contentType.includes("text/event-stream")) return { refused: notAStream(contentType) };
          const start = await pump();
          if (start.done) return { events: ended(), done: true };
          return start;
        },
        { maxRetries, signal, onRetry: logRetry, ...(options.sleep ? { sleep: options.sleep } : {}) },
      );
      if (attempted.isErr()) {
        yield* pending;
        return yield failed(attempted.error);
      }
      let first = attempted.value;
      if ("refused" in first) return yield { type: "error", error: first.refused };
      for (;;) {
        yield* first.events;
        if (first.done) return;
        first = await pump();
        if (first.done) return yield* ended();
      }
    } catch (error) {
      yield* pending;
      yield failed(modelFailure(error));
    } finally {
      // Ended early (a consumer's break, an error, the finish): let the response go.
      reader?.cancel().catch(() => undefined);
    }
  }

  return { step: options.debug !== undefined ? timedStep(step, options.debug) : step };
};
