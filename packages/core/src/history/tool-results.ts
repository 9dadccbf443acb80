/** Every tool call the model sees must have a result: fill the missing ones for a request. */
import type { Message, ToolCall, ToolResultMessage } from "./message.js";

/** What the model is sent for a call whose result was never recorded. */
export const NO_RESULT = "[no result recorded: the turn was interrupted]";

/** One placeholder per call, the same at every step (a model adapter may keep what it made of a message by identity). */
const placeholders = new WeakMap<ToolCall, ToolResultMessage>();

const placeholder = (call: ToolCall): ToolResultMessage => {
  let made = placeholders.get(call);
  if (made === undefined) {
    made = { role: "tool", callId: call.id, toolName: call.name, status: "failed", output: NO_RESULT };
    placeholders.set(call, made);
  }
  return made;
};

/**
 * The messages with a placeholder result for each call that lacks one, placed after the results
 * that follow its assistant message. The same array when nothing is missing.
 */
export const withAllToolResults = (messages: readonly Message[]): readonly Message[] => {
  // Every step sends the whole history through here: the common case (nothing missing) is one pass
  // that allocates only the set of answered ids.
  const answered = new Set<string>();
  for (const m of messages) if (m.role === "tool") answered.add(m.callId);
  const missing = (m: Message): readonly ToolResultMessage[] => (m.role === "assistant" ? m.toolCalls.filter((c) => !answered.has(c.id)).map(placeholder) : []);
  const lacksResult = (m: Message): boolean => m.role === "assistant" && m.toolCalls.some((c) => !answered.has(c.id));
  if (!messages.some(lacksResult)) return messages;
  /** Placeholders due after index `i`: those of the assistant message that the results from `i` on answer. */
  const dueAfter = (i: number): readonly ToolResultMessage[] => {
    const next = messages[i + 1];
    if (next !== undefined && next.role === "tool") return [];
    let owner = i;
    while (owner >= 0 && messages[owner]!.role === "tool") owner--;
    return owner >= 0 ? missing(messages[owner]!) : [];
  };
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) out.push(messages[i]!, ...dueAfter(i));
  return out;
};
