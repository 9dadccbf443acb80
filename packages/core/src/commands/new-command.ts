/** `/new`: the history back to its system prompt; id, cwd and grants kept. */
import { conversationOf, type History } from "../history/message.js";

/** What `/new` does to a history. */
export type NewCommandResult = {
  readonly history: History;
  readonly forgotten: number;
  /** The conversation before the reset, when there was one (to keep it under a new id). */
  readonly previous: History | undefined;
};

/** The history back to its system prompt, and what was forgotten. */
export const runNewCommand = (history: History): NewCommandResult => {
  const forgotten = conversationOf(history).length;
  return { history: [history[0]], forgotten, previous: forgotten > 0 ? history : undefined };
};

/** The spec's one-line chunk of `/new`. */
export const newCommandLine = (forgotten: number): string => `🆕 New session: ${forgotten} message(s) forgotten.`;
