/**
 * The Model port through the Vercel AI SDK: one `streamText` call per step (tools declared without
 * `execute`, so the core runs them) against an OpenAI chat-completions or Responses endpoint. The SDK
 * is imported on the first step, not at start-up; every failure ends the stream as an `error` event.
 */
import type { Model, ModelError, ModelEvent, ModelRequest, ToolSpec, Usage } from "@mm/core";
import type { JSONSchema7, LanguageModel, LanguageModelUsage, ToolSet } from "ai";
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
  /** Retries of 429, 5xx and connection failures (default 2); the SDK waits 2 s, 4 s… unless the server sends `retry-after(-ms)`. */
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

type Sdk = {
  readonly streamText: typeof import("ai").streamText;
  readonly jsonSchema: typeof import("ai").jsonSchema;
  readonly model: LanguageModel;
};

const isOpenAIEndpoint = (baseURL: string | undefined): boolean => {
  if (baseURL === undefined || baseURL === "") return true;
  try {
    return new URL(baseURL).hostname === "api.openai.com";
  } catch {
    return false;
  }
};

const usageOf = (usage: LanguageModelUsage | undefined): Usage => ({
  ...(usage?.inputTokens !== undefined ? { inputTokens: usage.inputTokens } : {}),
  ...(usage?.outputTokens !== undefined ? { outputTokens: usage.outputTokens } : {}),
});

export const aiSdkModel = (options: AiSdkModelOptions): Model => {
  const missingKey = !options.apiKey && isOpenAIEndpoint(options.baseURL);
  const apiKey = options.apiKey || PLACEHOLDER_API_KEY;
  const errorContext: ErrorContext = { baseURL: options.baseURL || OPENAI_BASE_URL, apiKey: options.apiKey };
  const maxRetries = options.maxRetries ?? 2;
  const providerOptions = options.api === "responses" ? { openai: { store: false } } : undefined;
  const toolSets = new WeakMap<readonly ToolSpec[], ToolSet>();
  let sdk: Promise<Sdk> | undefined;

  const loadSdk = async (): Promise<Sdk> => {
    const [ai, openai] = await Promise.all([import("ai"), import("@ai-sdk/openai")]);
    const provider = openai.createOpenAI({
      apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      ...(options.headers ? { headers: { ...options.headers } } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const model = options.api === "chat" ? provider.chat(options.model) : provider.responses(options.model);
    return { streamText: ai.streamText, jsonSchema: ai.jsonSchema, model };
  };

  const toolSetOf = ({ jsonSchema }: Sdk, specs: readonly ToolSpec[]): ToolSet | undefined => {
    if (specs.length === 0) return undefined;
    let tools = toolSets.get(specs);
    if (!tools) {
      tools = {};
      for (const spec of specs) {
        tools[spec.name] = { description: spec.description, inputSchema: jsonSchema(spec.inputSchema as JSONSchema7) };
      }
      toolSets.set(specs, tools);
    }
    return tools;
  };

  async function* step(request: ModelRequest): AsyncGenerator<ModelEvent> {
    const { signal } = request;
    const failed = (error: unknown): ModelEvent => ({
      type: "error",
      error: signal.aborted ? abortedError() : explainError(error, errorContext),
    });
    if (signal.aborted) return yield { type: "error", error: abortedError() };
    if (missingKey) return yield { type: "error", error: NO_API_KEY };
    try {
      sdk ??= loadSdk().catch((error: unknown) => {
        sdk = undefined;
        throw error;
      });
      const loaded = await sdk;
      const prompt = toModelPrompt(request.system, request.messages);
      const tools = toolSetOf(loaded, request.tools);
      const result = loaded.streamText({
        model: loaded.model,
        system: prompt.system,
        messages: prompt.messages,
        ...(tools ? { tools } : {}),
        maxRetries,
        abortSignal: signal,
        ...(providerOptions ? { providerOptions } : {}),
        onError: () => {},
      });
      let usage: LanguageModelUsage | undefined;
      for await (const part of result.fullStream) {
        switch (part.type) {
          case "text-delta":
            if (part.text !== "") yield { type: "text", text: part.text };
            break;
          case "tool-call":
            yield { type: "tool-call", id: part.toolCallId, name: part.toolName, input: part.input };
            break;
          case "finish-step":
            usage = part.usage;
            break;
          case "finish":
            return yield { type: "finish", usage: usageOf(usage ?? part.totalUsage) };
          case "error":
            return yield failed(part.error);
          case "abort":
            return yield { type: "error", error: abortedError() };
        }
      }
      yield signal.aborted
        ? { type: "error", error: abortedError() }
        : { type: "error", error: { kind: "bad-response", message: "the model stream ended without finishing" } };
    } catch (error) {
      yield failed(error);
    }
  }

  return { step };
};
