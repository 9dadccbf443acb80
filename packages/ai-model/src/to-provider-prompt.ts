/**
 * mm's conversation straight in the provider's prompt form (`LanguageModelV3Prompt`): the system
 * prompt, user text (and images), assistant reasoning, text and tool-call parts under mm's own `call_N`
 * ids, and each call's results right after it in one `tool` message (wherever they were recorded). A
 * call without a result gets the core's placeholder so the request stays valid; a result without its
 * call is dropped. A compaction summary is headed so the model reads it as context.
 *
 * Images a tool returned go in its result where the API takes them (Responses); chat-completions takes
 * images in user messages only, so there they follow the tool message as a user message.
 *
 * Every step sends the whole history: each user and assistant message keeps what it became (messages
 * are immutable values), with the results its calls were given, so a step converts only what is new.
 */
import { NO_RESULT, type AssistantMessage, type ImageData, type Message, type ToolCall, type ToolResultMessage, type UserMessage } from "@mm/core";
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

const userMessages = (message: UserMessage): LanguageModelV3Message[] => [
  {
    role: "user",
    content: [{ type: "text", text: message.summary ? `${SUMMARY_HEADING}\n${message.text}` : message.text }, ...(message.images ?? []).map(filePart)],
  },
];

/** What a message became, and what that depended on besides the message itself. */
type Conversion = {
  readonly imagesInToolResults: boolean;
  readonly reasoning: boolean;
  /** The result each of its calls was given (by identity), in call order. */
  readonly results: readonly (ToolResultMessage | undefined)[];
  readonly messages: readonly LanguageModelV3Message[];
};

const conversions = new WeakMap<UserMessage | AssistantMessage, Conversion>();

const sameResults = (message: UserMessage | AssistantMessage, known: Conversion, results: ReadonlyMap<string, ToolResultMessage>): boolean => {
  if (message.role === "user") return true;
  if (known.results.length !== message.toolCalls.length) return false;
  for (let i = 0; i < message.toolCalls.length; i++) if (known.results[i] !== results.get(message.toolCalls[i]!.id)) return false;
  return true;
};

/** The provider messages of a user or assistant message: the ones made for it before when nothing they depend on changed. */
const convertedOf = (
  message: UserMessage | AssistantMessage,
  results: ReadonlyMap<string, ToolResultMessage>,
  options: PromptOptions,
): readonly LanguageModelV3Message[] => {
  const reasoning = options.reasoning === true;
  const known = conversions.get(message);
  if (
    known !== undefined &&
    known.imagesInToolResults === options.imagesInToolResults &&
    known.reasoning === reasoning &&
    sameResults(message, known, results)
  ) {
    return known.messages;
  }
  const messages = message.role === "user" ? userMessages(message) : assistantMessages(message, results, options);
  conversions.set(message, {
    imagesInToolResults: options.imagesInToolResults,
    reasoning,
    results: message.role === "user" ? [] : message.toolCalls.map((call) => results.get(call.id)),
    messages,
  });
  return messages;
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
    if (message.role === "system") systems.push(message.text);
    else if (message.role !== "tool") for (const converted of convertedOf(message, results, options)) out.push(converted);
  }
  const systemText = systems.filter((s) => s !== "").join("\n\n");
  return [...(systemText !== "" ? [{ role: "system" as const, content: systemText }] : []), ...out];
};
