/**
 * mm's conversation straight in the provider's prompt form (`LanguageModelV3Prompt`): the system
 * prompt, user text, assistant text plus tool-call parts under mm's own `call_N` ids, and each call's
 * results right after it in one `tool` message (wherever they were recorded). A call without a result
 * gets the core's placeholder so the request stays valid; a result without its call is dropped. A
 * compaction summary is headed so the model reads it as context.
 */
import { NO_RESULT, type Message, type ToolCall } from "@mm/core";
import type { LanguageModelV3Message, LanguageModelV3Prompt, LanguageModelV3ToolResultPart } from "@ai-sdk/provider";

/** Heads a compaction summary so the model reads it as context, not as a new request. */
export const SUMMARY_HEADING = "[summary of the earlier conversation, written when it was compacted]";

const resultPart = (call: ToolCall, output: string | undefined): LanguageModelV3ToolResultPart => ({
  type: "tool-result",
  toolCallId: call.id,
  toolName: call.name,
  output: { type: "text", value: output ?? NO_RESULT },
});

const assistantMessages = (message: Extract<Message, { role: "assistant" }>, results: ReadonlyMap<string, string>): LanguageModelV3Message[] => {
  const content = [
    ...(message.text !== "" ? [{ type: "text" as const, text: message.text }] : []),
    ...message.toolCalls.map((call) => ({ type: "tool-call" as const, toolCallId: call.id, toolName: call.name, input: call.input })),
  ];
  if (message.toolCalls.length === 0) return content.length === 0 ? [] : [{ role: "assistant", content }];
  return [
    { role: "assistant", content },
    { role: "tool", content: message.toolCalls.map((call) => resultPart(call, results.get(call.id))) },
  ];
};

/** The prompt of one step; system messages inside `messages` join the system prompt. */
export const toProviderPrompt = (system: string, messages: readonly Message[]): LanguageModelV3Prompt => {
  const systems = [system];
  const out: LanguageModelV3Message[] = [];
  const results = new Map<string, string>();
  for (const message of messages) if (message.role === "tool") results.set(message.callId, message.output);
  for (const message of messages) {
    switch (message.role) {
      case "system":
        systems.push(message.text);
        break;
      case "user":
        out.push({ role: "user", content: [{ type: "text", text: message.summary ? `${SUMMARY_HEADING}\n${message.text}` : message.text }] });
        break;
      case "assistant":
        out.push(...assistantMessages(message, results));
        break;
      case "tool":
        break;
    }
  }
  const systemText = systems.filter((s) => s !== "").join("\n\n");
  return [...(systemText !== "" ? [{ role: "system" as const, content: systemText }] : []), ...out];
};
