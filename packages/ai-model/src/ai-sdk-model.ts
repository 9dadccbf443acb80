/**
 * The Model port on an OpenAI-compatible server. The chat-completions API (the default) goes through
 * mm's own lean path (chat-step.ts: the request body from kept history bytes, the event stream read by
 * one reader), so a chat step never loads the AI SDK's provider. The Responses API, and an embedder's
 * own `fetch`, go through the AI SDK's OpenAI provider: one `doStream` call per step on its language
 * model, tools declared by their JSON Schemas so the core runs them (`streamText` is not used: the core
 * runs the tool loop itself, and its layers cost more CPU per streamed chunk than the rest of the
 * agent). Both paths give the prompt in the API's form, parse tool inputs from JSON, and retry 429 /
 * 5xx / connection failures before the first chunk, honouring `retry-after(-ms)` as the AI SDK does.
 * The provider is imported on its first step, not at start-up; every failure ends the stream as an
 * `error` event.
 */
import type { Model, ModelError, ModelEvent, ModelRequest, ToolSpec, Usage } from "@mm/core";
import type { JSONSchema7, LanguageModelV3CallOptions, LanguageModelV3FunctionTool, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { chatRoute, chatStep, type ChatRoute, type ChatStepOptions } from "./chat-step.js";
import { parseInput } from "./chat-stream-reader.js";
import { abortedError, explainError, type ErrorContext } from "./explain-error.js";
import { nodeHttpSender, type HttpSender } from "./node-http-fetch.js";
import { providerRoutes, type Route } from "./provider-route.js";
import { isReasoningModelId, reasoningEvent } from "./reasoning-parts.js";
import { withRetries, type RetryNotice } from "./retry.js";
import { timedFetch, timedSender, timedStep } from "./timed-fetch.js";
import { cannedConnection, chatTextFrames, warmUpFrames, warmUpRequest } from "./warm-up.js";
import { warmUpSocket } from "./warm-up-socket.js";

/** Options of {@link aiSdkModel}. */
export type AiSdkModelOptions = {
  /** The model name the server knows, e.g. `gpt-4.1-mini`. */
  readonly model: string;
  /** An OpenAI-compatible base URL ending in `/v1`; OpenAI's own when absent. */
  readonly baseURL?: string;
  /** Absent or empty: every step fails with a `config` error for OpenAI's own endpoint; other servers get a dummy key. */
  readonly apiKey?: string | undefined;
  /** `chat`: /chat/completions, which every OpenAI-compatible server speaks; `responses`: /responses with `store: false`. */
  readonly api: "chat" | "responses";
  /** Retries of 429, 5xx and connection failures (default 2), waiting 2 s, 4 s… unless the server sends `retry-after(-ms)`. */
  readonly maxRetries?: number;
  /** How requests are sent; node:http / node:https when absent (node-http-fetch.ts). */
  readonly fetch?: typeof fetch;
  readonly headers?: Readonly<Record<string, string>>;
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

/** What every step of OpenAI's own endpoint fails with when no key is set. */
export const NO_API_KEY: ModelError = {
  kind: "config",
  message: "no API key: set OPENAI_API_KEY (or the variable named by model.apiKeyEnv)",
};

type ProviderTools = LanguageModelV3FunctionTool[];
type ProviderUsage = Extract<LanguageModelV3StreamPart, { type: "finish" }>["usage"];

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

/** `model server answered 500, retry 1/2 in 2 s`, or the network failure's own words. */
export const retryLine = (notice: RetryNotice, context: ErrorContext): string => {
  const status = (notice.error as { statusCode?: unknown }).statusCode;
  const cause = typeof status === "number" ? `model server answered ${status}` : explainError(notice.error, context).message;
  const ms = Math.round(notice.delayMs);
  const delay = ms < 1000 ? `${ms} ms` : `${Number.isInteger(ms / 1000) ? ms / 1000 : (ms / 1000).toFixed(1)} s`;
  return `${cause}, retry ${notice.retry}/${notice.of} in ${delay}`;
};

/** How a warm-up ended: its step finished, a real step stopped it, or it failed (with why). */
export type WarmUpOutcome = "warmed" | "stopped" | `failed: ${string}`;

/** The Model port, and a warm-up to run in idle time before the first step. */
export type AiSdkModel = Model & {
  /**
   * Runs one step through the real request path (mm's chat path, or the provider for the Responses
   * API) and HTTP client against a canned answer served in this process (a private local socket for
   * the chat path, an in-memory connection otherwise; nothing on the network, no output), so the first
   * real step finds their code compiled; then opens the real server's connection ahead of the first
   * step (nothing sent on it). Runs once; the first real step stops it rather than wait for it. Never
   * rejects.
   */
  readonly warmUp: () => Promise<WarmUpOutcome>;
  /**
   * For a turn rehearsed in idle time: a Model whose every step answers `texts` (text deltas) through
   * this model's own chat request path, HTTP client and stream reader, against a private local socket
   * (nothing on the network). Undefined where there is no such path (the Responses API, an embedder's
   * fetch, a platform without the local socket).
   */
  readonly cannedChat: (texts: readonly string[]) => Model | undefined;
};

/** The (never contacted) address of the warm-up step. */
const WARM_UP_BASE_URL = "http://warm-up.invalid/v1";

/** The Model port on an OpenAI-compatible server (see the module comment). Its `step` never throws. */
export const aiSdkModel = (options: AiSdkModelOptions): AiSdkModel => {
  const missingKey = !options.apiKey && isOpenAIEndpoint(options.baseURL);
  const apiKey = options.apiKey || PLACEHOLDER_API_KEY;
  const errorContext: ErrorContext = { baseURL: options.baseURL || OPENAI_BASE_URL, apiKey: options.apiKey };
  const maxRetries = options.maxRetries ?? 2;
  /** Responses: nothing stored server-side; reasoning models asked for summaries (and their encrypted reasoning, by the provider). */
  const providerOptionsFor = (modelId: string): Pick<LanguageModelV3CallOptions, "providerOptions"> =>
    options.api !== "responses"
      ? {}
      : { providerOptions: { openai: { store: false, ...(isReasoningModelId(modelId) ? { reasoningSummary: "auto" } : {}) } } };
  const logRetry = (notice: RetryNotice): void => options.log?.(retryLine(notice, errorContext));
  const toolSets = new WeakMap<readonly ToolSpec[], ProviderTools>();

  const { routeOn, promptOf } = providerRoutes({ api: options.api, headers: options.headers });
  const debug = options.debug;
  /** mm's own chat path: the chat API on our HTTP client (an embedder's `fetch` goes through the provider). */
  const lean = options.api === "chat" && options.fetch === undefined;
  const httpSender = nodeHttpSender();
  const realSender = debug !== undefined ? timedSender(httpSender, debug) : httpSender;
  const realRoute = routeOn({
    apiKey,
    baseURL: options.baseURL,
    ...(options.fetch !== undefined ? { fetch: debug !== undefined ? timedFetch(options.fetch, debug) : options.fetch } : { send: realSender }),
  });
  // The provider's own default: OPENAI_BASE_URL, then OpenAI's.
  const chatBaseURL = (): string => options.baseURL || process.env.OPENAI_BASE_URL || OPENAI_BASE_URL;
  let realChat: ChatRoute | undefined;
  const chatOptions = (retries: number): ChatStepOptions => ({
    model: options.model,
    maxRetries: retries,
    errorContext,
    notAStream,
    sleep: options.sleep,
    onRetry: logRetry,
  });

  const toolsOf = (specs: readonly ToolSpec[]): ProviderTools | undefined => {
    if (specs.length === 0) return undefined;
    let tools = toolSets.get(specs);
    if (!tools) {
      tools = specs.map((spec) => ({
        type: "function" as const,
        name: spec.name,
        description: spec.description,
        // The core's schemas are JSON Schema documents; the provider types them as JSONSchema7.
        inputSchema: spec.inputSchema as JSONSchema7,
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

  /** One step on `route`; `refusal`, when given, is the step's only event (after a cancel's). */
  async function* runStep(route: Route, request: ModelRequest, retries: number, refusal?: ModelError): AsyncGenerator<ModelEvent> {
    const { signal } = request;
    const failed = (error: unknown): ModelEvent => ({
      type: "error",
      error: signal.aborted ? abortedError() : explainError(error, errorContext),
    });
    if (signal.aborted) return yield { type: "error", error: abortedError() };
    if (refusal !== undefined) return yield { type: "error", error: refusal };
    let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
    try {
      const modelId = request.model ?? options.model;
      const model = await route.modelsOf(modelId);
      const tools = toolsOf(request.tools);
      const prompt = promptOf(request);
      const call: LanguageModelV3CallOptions = {
        prompt,
        ...(tools ? { tools, toolChoice: { type: "auto" } } : {}),
        abortSignal: signal,
        // Chat servers send reasoning in fields the provider does not parse: read from the raw chunks.
        ...(options.api === "chat" ? { includeRawChunks: true } : {}),
        ...providerOptionsFor(modelId),
      };
      const { stream, response } = await withRetries(async () => model.doStream(call), { maxRetries: retries, signal, onRetry: logRetry, ...(options.sleep ? { sleep: options.sleep } : {}) });
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
          case "raw":
          case "reasoning-delta":
          case "reasoning-end": {
            const event = reasoningEvent(part);
            if (event !== undefined) yield event;
            break;
          }
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

  /** The warm-up under way, stopped by the first real step so that step never waits for it. */
  let warming: AbortController | undefined;
  let warmed: Promise<WarmUpOutcome> | undefined;

  const step = (request: ModelRequest): AsyncGenerator<ModelEvent> => {
    warming?.abort();
    const refusal = missingKey ? NO_API_KEY : undefined;
    if (!lean) return runStep(realRoute, request, maxRetries, refusal);
    try {
      realChat ??= chatRoute({ apiKey, baseURL: chatBaseURL(), headers: options.headers, send: realSender });
    } catch (error) {
      // A base URL that is no URL (an embedder's; the agent's config checks its own): the step's error, not a throw.
      return (async function* () {
        yield { type: "error" as const, error: { kind: "config" as const, message: `the model's base URL ${JSON.stringify(chatBaseURL())} is not a URL (${error instanceof Error ? error.message : String(error)})` } };
      })();
    }
    return chatStep(realChat, request, chatOptions(maxRetries), refusal);
  };

  /** A chat step of `request` on `send`, a canned answer's connection (the warm-up's, a rehearsed turn's). */
  const cannedChatStep = (send: HttpSender, request: ModelRequest): AsyncIterable<ModelEvent> =>
    chatStep(chatRoute({ apiKey: "warm-up", baseURL: WARM_UP_BASE_URL, headers: options.headers, send }), request, chatOptions(0));

  /** The warm-up (see {@link AiSdkModel.warmUp}; the canned answer: warm-up.ts, warm-up-socket.ts). */
  const warmUp = (): Promise<WarmUpOutcome> =>
    (warmed ??= (async (): Promise<WarmUpOutcome> => {
      const controller = new AbortController();
      warming = controller;
      const frames = warmUpFrames(options.api, options.model);
      // The chat path through the keep-alive agent and a real socket (a private local one), as a real step goes.
      const local = lean ? await warmUpSocket(frames) : undefined;
      const send = nodeHttpSender(local !== undefined ? { agentConnection: local.connect } : { createConnection: () => cannedConnection(frames) });
      const warmRequest = { ...warmUpRequest, signal: controller.signal };
      const steps = lean
        ? cannedChatStep(send, warmRequest)
        : runStep(routeOn({ apiKey: "warm-up", baseURL: WARM_UP_BASE_URL, send }), warmRequest, 0);
      let last: ModelEvent | undefined;
      try {
        for await (const event of steps) last = event;
      } finally {
        local?.close();
      }
      warming = undefined;
      if (last?.type === "finish") {
        // The first real step's connection, opened in the same idle time (not for an embedder's fetch, nor without a key).
        if (options.fetch === undefined && !missingKey && URL.canParse(chatBaseURL())) httpSender.preconnect(new URL(chatBaseURL()));
        return "warmed";
      }
      return controller.signal.aborted ? "stopped" : `failed: ${last?.type === "error" ? last.error.message : "no finish"}`;
    })());

  const cannedChat = (texts: readonly string[]): Model | undefined =>
    !lean
      ? undefined
      : {
          step: (request) =>
            (async function* () {
              const local = await warmUpSocket(chatTextFrames(options.model, texts));
              if (local === undefined) {
                yield { type: "error" as const, error: { kind: "config" as const, message: "no local socket for a canned answer" } };
                return;
              }
              try {
                yield* cannedChatStep(nodeHttpSender({ agentConnection: local.connect }), request);
              } finally {
                local.close();
              }
            })(),
        };

  return { step: debug !== undefined ? timedStep(step, debug) : step, warmUp, cannedChat };
};
