/**
 * What @mm/ai-model uses of the AI SDK, in one module imported on the first model step
 * (provider-models.ts), so that start-up loads none of it. The agent's build makes it a file of its
 * own, loaded by that import. (undici, for a proxy, is imported only when one is set.) mm's mending of
 * chat streams, used only with the SDK, comes with it.
 */
export { createOpenAI } from "@ai-sdk/openai";
export { createOpenAICompatible } from "@ai-sdk/openai-compatible";
export { extractReasoningMiddleware, wrapLanguageModel } from "ai";
export { EventSourceParserStream } from "eventsource-parser/stream";
export { withChatStreamRepairs } from "./chat-stream-repairs.js";
