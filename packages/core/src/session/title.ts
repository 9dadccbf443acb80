/** A session's title: the first line of its first prompt, cut to one short line. No model call. */
import type { Message } from "../history/message.js";

/** How long a title may be, in characters. */
export const MAX_TITLE_LENGTH = 80;

/** The title a prompt's text gives: its first line with text, whitespace folded, cut with `…`; undefined when blank. */
export const titleOf = (text: string): string | undefined => {
  const line = text
    .split("\n")
    .map((l) => l.replace(/\s+/g, " ").trim())
    .find((l) => l !== "" && !/^\[(attached (file|directory)|use skill): /.test(l));
  if (line === undefined) return undefined;
  const chars = [...line];
  return chars.length <= MAX_TITLE_LENGTH
    ? line
    : `${chars
        .slice(0, MAX_TITLE_LENGTH - 1)
        .join("")
        .trimEnd()}…`;
};

/** The title of a conversation: that of its first user message that is not a compaction summary. */
export const titleOfHistory = (messages: readonly Message[]): string | undefined => {
  const first = messages.find((m) => m.role === "user" && m.summary !== true);
  return first === undefined || first.role !== "user" ? undefined : titleOf(first.text);
};
