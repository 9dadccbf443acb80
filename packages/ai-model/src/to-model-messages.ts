/**
 * mm's conversation as AI SDK `ModelMessage`s: user text, assistant text plus tool-call parts under our
 * own `call_N` ids, and each call's results right after it in one `tool` message (wherever they were
 * recorded). A call without a result gets the core's placeholder so the request stays valid (the core
 * already adds it; this keeps the request valid whatever the caller passes); a result without its call
 * is dropped. A compaction summary is headed so the model reads it as context.
 */
import { NO_RESULT, type Message, type ToolCall } from "@mm/core";
import type { ModelMessage, ToolResultPart } from "ai";

/** Heads a compaction summary so the model reads it as context, not as a new request. */
export const SUMMARY_HEADING = "[summary of the earlier conversation, written when it was compacted]";

type Prompt = { readonly system: string; readonly messages: ModelMessage[] };

/** The system prompt and the messages to send; system messages inside `messages` join the system prompt. */
export const toModelPrompt = (system: string, messages: readonly Message[]): Prompt => {
  const systems = [system];
  const out: ModelMessage[] = [];
  const results = new Map<string, string>();
  for (const message of messages) if (message.role === "tool") results.set(message.callId, message.output);
  for (const message of messages) {
    switch (message.role) {
      case "system":
        systems.push(message.text);
        break;
      case "user":
        out.push({ role: "user", content: message.summary ? `${SUMMARY_HEADING}\n${message.text}` : message.text });
        break;
      case "assistant": {
        out.push({
          role: "assistant",
          content: [
            ...(message.text ? [{ type: "text" as const, text: message.text }] : []),
            ...message.toolCalls.map((call) => ({
              type: "tool-call" as const,
              toolCallId: call.id,
              toolName: call.name,
              input: call.input,
            })),
          ],
        });
        if (message.toolCalls.length === 0) break;
        out.push({ role: "tool", content: message.toolCalls.map((call) => resultPart(call, results.get(call.id))) });
        break;
      }
      case "tool":
        break;
    }
  }
  return { system: systems.filter((s) => s !== "").join("\n\n"), messages: out };
};

const resultPart = (call: ToolCall, output: string | undefined): ToolResultPart => ({
  type: "tool-result",
  toolCallId: call.id,
  toolName: call.name,
  output: { type: "text", value: output ?? NO_RESULT },
});
