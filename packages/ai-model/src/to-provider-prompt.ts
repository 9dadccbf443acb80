/**
 * mm's conversation straight in the provider's prompt form (`LanguageModelV3Prompt`): the system
 * prompt, user text (and images), assistant reasoning, text and tool-call parts under mm's own `call_N`
 * ids, and each call's results right after it in one `tool` message (wherever they were recorded). A
 * call without a result gets the core's placeholder so the request stays valid; a result without its
 * call is dropped. A compaction summary is headed so the model reads it as context.
 *
 * Images a tool returned go in its result where the API takes them (Responses); chat-completions takes
 * images in user messages only, so there they follow the tool message as a user message.
 */
import { NO_RESULT, type AssistantMessage, type ImageData, type Message, type ToolCall, type ToolResultMessage } from "@mm/core";
import type {
  LanguageModelV3FilePart,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ReasoningPart,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";

/** Heads a compaction summary so the model reads it as context, not as a new request. */
export const SUMMARY_HEADING = "[summary of the earlier conversation, written when it was compacted]";

/** What the API takes. */
export type PromptOptions = {
  /** Tool results may hold images (the Responses API); else they follow as a user message. */
  readonly imagesInToolResults: boolean;
  /**
   * Reasoning is sent back (the Responses API, which needs its encrypted items). Chat servers get
   * none: most ignore it, some refuse it, and it would cost its tokens again on every step.
   */
  readonly reasoning?: boolean;
};

const filePart = (image: ImageData): LanguageModelV3FilePart => ({ type: "file", mediaType: image.mimeType, data: image.data });

const resultPart = (call: ToolCall, result: ToolResultMessage | undefined, options: PromptOptions): LanguageModelV3ToolResultPart => {
  const output = result?.output ?? NO_RESULT;
  const images = options.imagesInToolResults ? (result?.images ?? []) : [];
  return {
    type: "tool-result",
    toolCallId: call.id,
    toolName: call.name,
    output:
      images.length === 0
        ? { type: "text", value: output }
        : {
            type: "content",
            value: [{ type: "text", text: output }, ...images.map((i) => ({ type: "image-data" as const, data: i.data, mediaType: i.mimeType }))],
          },
  };
};

const reasoningParts = (message: AssistantMessage): LanguageModelV3ReasoningPart[] =>
  (message.reasoning ?? []).map((r) => ({
    type: "reasoning",
    text: r.text,
    ...(r.item !== undefined || r.encrypted !== undefined
      ? {
          providerOptions: {
            openai: { ...(r.item !== undefined ? { itemId: r.item } : {}), ...(r.encrypted !== undefined ? { reasoningEncryptedContent: r.encrypted } : {}) },
          },
        }
      : {}),
  }));

const assistantMessages = (message: AssistantMessage, results: ReadonlyMap<string, ToolResultMessage>, options: PromptOptions): LanguageModelV3Message[] => {
  const content = [
    ...(options.reasoning === true ? reasoningParts(message) : []),
    ...(message.text !== "" ? [{ type: "text" as const, text: message.text }] : []),
    ...message.toolCalls.map((call) => ({ type: "tool-call" as const, toolCallId: call.id, toolName: call.name, input: call.input })),
  ];
  if (message.toolCalls.length === 0) return content.length === 0 ? [] : [{ role: "assistant", content }];
  const out: LanguageModelV3Message[] = [
    { role: "assistant", content },
    { role: "tool", content: message.toolCalls.map((call) => resultPart(call, results.get(call.id), options)) },
  ];
  if (options.imagesInToolResults) return out;
  const shown = message.toolCalls.flatMap((call) => (results.get(call.id)?.images ?? []).map((image) => ({ call, image })));
  if (shown.length === 0) return out;
  const ids = [...new Set(shown.map((s) => s.call.id))].join(", ");
  return [...out, { role: "user", content: [{ type: "text", text: `[the images returned by ${ids}]` }, ...shown.map((s) => filePart(s.image))] }];
};

/** The prompt of one step; system messages inside `messages` join the system prompt. */
export const toProviderPrompt = (
  system: string,
  messages: readonly Message[],
  options: PromptOptions = { imagesInToolResults: false, reasoning: true },
): LanguageModelV3Prompt => {
  const systems = [system];
  const out: LanguageModelV3Message[] = [];
  const results = new Map<string, ToolResultMessage>();
  for (const message of messages) if (message.role === "tool") results.set(message.callId, message);
  for (const message of messages) {
    switch (message.role) {
      case "system":
        systems.push(message.text);
        break;
      case "user":
        out.push({
          role: "user",
          content: [{ type: "text", text: message.summary ? `${SUMMARY_HEADING}\n${message.text}` : message.text }, ...(message.images ?? []).map(filePart)],
        });
        break;
      case "assistant":
        out.push(...assistantMessages(message, results, options));
        break;
      case "tool":
        break;
    }
  }
  const systemText = systems.filter((s) => s !== "").join("\n\n");
  return [...(systemText !== "" ? [{ role: "system" as const, content: systemText }] : []), ...out];
};
