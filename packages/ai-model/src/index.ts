/**
 * @mm/ai-model — the Model port of @mm/core through the AI SDK (`@ai-sdk/openai` for OpenAI's own
 * endpoint and the Responses API, `@ai-sdk/moonshotai` for Moonshot's, `@ai-sdk/openai-compatible` for
 * every other chat-completions server), any base URL, the environment's proxy, the SDK loaded on the first step.
 */
export { aiSdkModel, NO_API_KEY, noApiKey, OPENAI_BASE_URL, PLACEHOLDER_API_KEY, type AiSdkModelOptions } from "./ai-sdk-model.js";
export { MAX_STEP_OUTPUT_CHARS } from "./output-cap.js";
export { describeProxy, proxySettings, type ProxySettings } from "./proxy.js";
export { explainError, type ErrorContext } from "./explain-error.js";
export { listModelCatalogue, listModelIds, type ModelCatalogue, type ModelCatalogueOptions } from "./model-catalogue.js";
export { isOpenAIHost } from "./openai-host.js";
export { isReasoningModelId } from "./reasoning-models.js";
export { CHAT_PROVIDERS, chatProviderFor, type ChatProvider } from "./chat-provider.js";
export { MAX_REDIRECTS, modelFetch, RedirectRefused, sameOriginRedirects } from "./model-fetch.js";
