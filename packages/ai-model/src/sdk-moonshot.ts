/**
 * The AI SDK's Moonshot provider, in a module of its own imported only when a model is served by it
 * (provider-models.ts): neither start-up nor other servers' first step load it. The agent's build
 * makes it a file of its own.
 */
export { createMoonshotAI } from "@ai-sdk/moonshotai";
