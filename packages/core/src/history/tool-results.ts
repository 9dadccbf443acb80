/** Every tool call the model sees must have a result: fill the missing ones for a request. */
import * as RA from "fp-ts/lib/ReadonlyArray.js";
import { pipe } from "fp-ts/lib/function.js";
import type { Message, ToolResultMessage } from "./message.js";

/** What the model is sent for a call whose result was never recorded. */
export const NO_RESULT = "[no result recorded: the turn was interrupted]";

const placeholder = (callId: string, toolName: string): ToolResultMessage => ({ role: "tool", callId, toolName, status: "failed", output: NO_RESULT });

/**
 * The messages with a placeholder result for each call that lacks one, placed after the results
 * that follow its assistant message. The same array when nothing is missing.
 */
export const withAllToolResults = (messages: readonly Message[]): readonly Message[] => {
  // Every step sends the whole history through here: the common case (nothing missing) is one pass
  // that allocates only the set of answered ids.
  const answered = new Set<string>();
  for (const m of messages) if (m.role === "tool") answered.add(m.callId);
  const missing = (m: Message): readonly ToolResultMessage[] =>
    m.role === "assistant" ? m.toolCalls.filter((c) => !answered.has(c.id)).map((c) => placeholder(c.id, c.name)) : [];
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
  return pipe(
    messages,
    RA.chainWithIndex((i, m) => [m, ...dueAfter(i)]),
  );
};
