/** The summarisation request: the replaced messages as a transcript, and what the summary must hold. */
import type { Message } from "../history/message.js";

/** The system prompt of a summary request. */
export const SUMMARY_SYSTEM_PROMPT = `You compress the history of a coding session between a user and Bob, a bash-first coding agent, so that Bob can carry on the work from your summary alone.
Write a concise summary in Markdown with these sections:
## Goal — what the user is trying to achieve overall.
## Decisions — choices made and constraints learned (with reasons).
## Files — every file read, created, changed or deleted, with what changed.
## Commands — the important commands run and what they showed (errors, test results).
## Open tasks — what is left to do, in order.
## Last request — what the user asked last, in their words where it matters.
Keep exact names, paths, identifiers and error messages. Do not invent anything. Do not address the user.`;

const MAX_OUTPUT_CHARS = 2000;

const clip = (text: string): string =>
  text.length <= MAX_OUTPUT_CHARS ? text : `${text.slice(0, MAX_OUTPUT_CHARS / 2)}\n[…]\n${text.slice(-MAX_OUTPUT_CHARS / 2)}`;

const render = (m: Message): string => {
  switch (m.role) {
    case "system":
      return "";
    case "user":
      return m.summary ? `[summary of earlier work]\n${m.text}` : `USER: ${m.text}`;
    case "assistant": {
      const calls = m.toolCalls.map((c) => `BOB CALLS ${c.name} ${JSON.stringify(c.input)}`);
      return [m.text && `BOB: ${m.text}`, ...calls].filter(Boolean).join("\n");
    }
    case "tool":
      return `RESULT of ${m.toolName} (${m.status}):\n${clip(m.output)}`;
  }
};

/** The single user message the summariser receives. */
export const summaryRequestText = (replaced: readonly Message[]): string =>
  `Here is the part of the session to summarise:\n\n<transcript>\n${replaced
    .map(render)
    .filter(Boolean)
    .join("\n\n")}\n</transcript>\n\nWrite the summary now.`;
