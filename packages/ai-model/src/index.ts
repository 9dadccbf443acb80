/** @mm/ai-model: mm's Model port through the Vercel AI SDK (OpenAI chat-completions or Responses, any base URL). */
export {
  aiSdkModel,
  NO_API_KEY,
  OPENAI_BASE_URL,
  PLACEHOLDER_API_KEY,
  type AiSdkModelOptions,
} from "./ai-sdk-model.js";
export { explainError, type ErrorContext } from "./explain-error.js";
export { SUMMARY_HEADING, toModelPrompt } from "./to-model-messages.js";
