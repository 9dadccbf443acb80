/**
 * Reasoning from the provider's stream as mm's model events. The Responses API streams reasoning
 * summaries as `reasoning-*` parts (item ids and encrypted content in their provider metadata).
 * Chat-completions servers (DeepSeek, vLLM, LM Studio, Ollama…) send `reasoning_content` or
 * `reasoning` beside `content` in each delta, which the provider's chat model does not parse: it is
 * read from the raw chunks.
 */
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { ModelEvent } from "@mm/core";

type OpenAIMetadata = { readonly itemId?: unknown; readonly reasoningEncryptedContent?: unknown };

const openaiOf = (part: { providerMetadata?: unknown }): OpenAIMetadata =>
  ((part.providerMetadata as { openai?: OpenAIMetadata } | undefined)?.openai ?? {});

const itemOf = (part: { id: string; providerMetadata?: unknown }): string => {
  const item = openaiOf(part).itemId;
  return typeof item === "string" ? item : part.id;
};

/** The reasoning text of a raw chat-completions chunk (`choices[0].delta.reasoning_content` or `.reasoning`). */
export const rawReasoning = (raw: unknown): string | undefined => {
  const delta = (raw as { choices?: { delta?: { reasoning_content?: unknown; reasoning?: unknown } }[] } | undefined)?.choices?.[0]?.delta;
  const text = delta?.reasoning_content ?? delta?.reasoning;
  return typeof text === "string" && text !== "" ? text : undefined;
};

/** The model event of a reasoning part of the stream, if it is one that carries something. */
export const reasoningEvent = (part: LanguageModelV3StreamPart): ModelEvent | undefined => {
  switch (part.type) {
    case "reasoning-delta":
      return part.delta === "" ? undefined : { type: "reasoning", text: part.delta, item: itemOf(part) };
    case "reasoning-end": {
      const encrypted = openaiOf(part).reasoningEncryptedContent;
      return { type: "reasoning-end", item: itemOf(part), ...(typeof encrypted === "string" ? { encrypted } : {}) };
    }
    case "raw": {
      const text = rawReasoning(part.rawValue);
      return text === undefined ? undefined : { type: "reasoning", text };
    }
    default:
      return undefined;
  }
};

/** Model ids OpenAI reasons with (o-series, gpt-5 and later but their chat variants): asked for reasoning summaries. */
export const isReasoningModelId = (id: string): boolean => /^(o\d|gpt-([5-9]|\d{2}))/.test(id) && !/^gpt-\d+(\.\d+)?-chat/.test(id);
