/** A cheap token estimate (about four characters a token) for when the model reports none. */
import type { Message } from "./message.js";

const sizeOf = (m: Message): number => {
  switch (m.role) {
    case "assistant":
      return m.text.length + m.toolCalls.reduce((n, c) => n + c.name.length + (JSON.stringify(c.input)?.length ?? 0), 0);
    case "tool":
      return m.output.length;
    default:
      return m.text.length;
  }
};

/** About four characters a token, plus a little per message. */
export const estimateTokens = (messages: readonly Message[]): number => Math.ceil(messages.reduce((n, m) => n + sizeOf(m) + 16, 0) / 4);
