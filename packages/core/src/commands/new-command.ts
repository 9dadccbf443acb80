/** `/new`: the history back to its system prompt; id, cwd and grants kept. */
import { conversationOf, type History } from "../history/message.js";

export type NewCommandResult = {
  readonly history: History;
  readonly forgotten: number;
  /** The conversation before the reset, when there was one (to keep it under a new id). */
  readonly previous: History | undefined;
};

export const runNewCommand = (history: History): NewCommandResult => {
  const forgotten = conversationOf(history).length;
  return { history: [history[0]], forgotten, previous: forgotten > 0 ? history : undefined };
};

export const newCommandLine = (forgotten: number): string => `🆕 New session: ${forgotten} message(s) forgotten.`;
