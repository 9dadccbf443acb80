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

/** An image a user attached or a tool returned: base64 data and its media type (`image/png`…). */
export type ImageData = { readonly data: string; readonly mimeType: string };

/** A piece of the model's reasoning, as streamed; `item` and `encrypted` are what a provider needs to be sent it back. */
export type ReasoningPart = {
  readonly text: string;
  /** The provider's id of the reasoning item (OpenAI's Responses API), when it gave one. */
  readonly item?: string;
  /** The provider's encrypted reasoning, to send back with `store: false`. */
  readonly encrypted?: string;
};

/** A tool call of the model, under mm's own id. */
export type ToolCall = {
  /** `call_N`, unique in the process and in the session. */
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
};

/** The system prompt: first in a history, and only there. */
export type SystemMessage = { readonly role: "system"; readonly text: string };
/** What the user sent (the prompt's flattened text), or a compaction summary. */
export type UserMessage = {
  readonly role: "user";
  readonly text: string;
  /** Present when this message is a compaction summary replacing older turns. */
  readonly summary?: true;
  /** Images of the prompt (for a model that reads them). */
  readonly images?: readonly ImageData[];
};
/** The model's text of one step and the tool calls it made, in order. */
export type AssistantMessage = {
  readonly role: "assistant";
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /** The model's reasoning before this text and these calls, when it streamed some. */
  readonly reasoning?: readonly ReasoningPart[];
};
/** The recorded result of a tool call: what the model was given, and the files changed. */
export type ToolResultMessage = {
  readonly role: "tool";
  readonly callId: string;
  readonly toolName: string;
  readonly status: "completed" | "failed";
  readonly output: string;
  readonly diffs?: readonly FileDiff[];
  /** Images the tool returned (an MCP tool's screenshot, an image file read for a vision model). */
  readonly images?: readonly ImageData[];
  /**
   * How the call was shown live, kept for a tool that may be gone when the session is loaded (an MCP
   * server's): the replay shows the same title, kind and files.
   */
  readonly shown?: ShownCall;
};

/** A call's title, kind and files as the user saw them. */
export type ShownCall = { readonly title: string; readonly kind: string; readonly locations?: readonly string[] };

/** One element of a conversation. */
export type Message = SystemMessage | UserMessage | AssistantMessage | ToolResultMessage;

/** A history always starts with the system prompt. */
export type History = readonly [SystemMessage, ...Message[]];

/** A system prompt message. */
export const systemMessage = (text: string): SystemMessage => ({ role: "system", text });
/** A user message. */
export const userMessage = (text: string, images: readonly ImageData[] = []): UserMessage =>
  images.length === 0 ? { role: "user", text } : { role: "user", text, images };
/** A compaction summary (a marked user message). */
export const summaryMessage = (text: string): UserMessage => ({ role: "user", text, summary: true });
/** A model message, with the tool calls it made. */
export const assistantMessage = (text: string, toolCalls: readonly ToolCall[] = [], reasoning: readonly ReasoningPart[] = []): AssistantMessage =>
  reasoning.length === 0 ? { role: "assistant", text, toolCalls } : { role: "assistant", text, toolCalls, reasoning };

/** The history with its system prompt replaced (load and rebuild keep everything else). */
export const withSystemPrompt = (history: History, text: string): History => [systemMessage(text), ...history.slice(1)];

/** The history without its system prompt: what counts as "messages" in user-facing lines. */
export const conversationOf = (history: History): readonly Message[] => history.slice(1);
