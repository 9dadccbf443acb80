/** Every tool call the model sees must have a result: fill the missing ones for a request. */
import type { Message, ToolResultMessage } from "./message.js";

export const NO_RESULT = "[no result recorded: the turn was interrupted]";

/** The messages with a placeholder result after each assistant message whose calls lack one. */
export const withAllToolResults = (messages: readonly Message[]): readonly Message[] => {
  const answered = new Set<string>();
  for (const m of messages) if (m.role === "tool") answered.add(m.callId);
  let missing = false;
  for (const m of messages) {
    if (m.role === "assistant" && m.toolCalls.some((c) => !answered.has(c.id))) missing = true;
  }
  if (!missing) return messages;
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    out.push(m);
    if (m.role !== "assistant") continue;
    let j = i + 1;
    while (j < messages.length && messages[j]!.role === "tool") out.push(messages[j++]!);
    for (const call of m.toolCalls) {
      if (answered.has(call.id)) continue;
      const filler: ToolResultMessage = { role: "tool", callId: call.id, toolName: call.name, status: "failed", output: NO_RESULT };
      out.push(filler);
    }
    i = j - 1;
  }
  return out;
};
