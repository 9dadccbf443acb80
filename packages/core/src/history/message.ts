/**
 * The conversation as mm stores it: the system prompt, user messages (a compaction summary is a
 * marked user message), model messages with the tool calls they made, and tool results.
 * Everything here is plain JSON so a session file holds it verbatim.
 */

/** One file change a tool made or proposes: `oldText` null for a creation, `newText` null for a deletion. */
export type FileDiff = {
  readonly path: string;
  readonly oldText: string | null;
  readonly newText: string | null;
  /** Set when the file is binary or too large to show: named, not diffed (texts are then null). */
  readonly note?: string;
};

export type ToolCall = {
  /** `call_N`, unique in the process and in the session. */
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
};

export type SystemMessage = { readonly role: "system"; readonly text: string };
export type UserMessage = {
  readonly role: "user";
  readonly text: string;
  /** Present when this message is a compaction summary replacing older turns. */
  readonly summary?: true;
};
export type AssistantMessage = {
  readonly role: "assistant";
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
};
export type ToolResultMessage = {
  readonly role: "tool";
  readonly callId: string;
  readonly toolName: string;
  readonly status: "completed" | "failed";
  readonly output: string;
  readonly diffs?: readonly FileDiff[];
};

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** A history always starts with the system prompt. */
export type History = readonly [SystemMessage, ...Message[]];

export const systemMessage = (text: string): SystemMessage => ({ role: "system", text });
export const userMessage = (text: string): UserMessage => ({ role: "user", text });
export const summaryMessage = (text: string): UserMessage => ({ role: "user", text, summary: true });
export const assistantMessage = (text: string, toolCalls: readonly ToolCall[] = []): AssistantMessage => ({
  role: "assistant",
  text,
  toolCalls,
});

/** The history with its system prompt replaced (load and rebuild keep everything else). */
export const withSystemPrompt = (history: History, text: string): History => [
  systemMessage(text),
  ...history.slice(1),
];

/** The history without its system prompt: what counts as "messages" in user-facing lines. */
export const conversationOf = (history: History): readonly Message[] => history.slice(1);
