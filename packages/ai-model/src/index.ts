/**
 * @mm/ai-model — the Model port of @mm/core through the AI SDK's OpenAI provider: chat-completions
 * (every OpenAI-compatible server) or the Responses API, any base URL, the provider loaded on the
 * first step.
 */
export { aiSdkModel, NO_API_KEY, OPENAI_BASE_URL, PLACEHOLDER_API_KEY, type AiSdkModelOptions } from "./ai-sdk-model.js";
export { explainError, type ErrorContext } from "./explain-error.js";
export { listModelIds, type ModelCatalogueOptions } from "./model-catalogue.js";
