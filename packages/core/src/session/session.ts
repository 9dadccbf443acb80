/** A session as a value: its id, cwd, history, allow-always grants and the last reported token count. */
import type { History } from "../history/message.js";

/** One conversation. Replaced, never changed in place, as turns and commands run. */
export type Session = {
  readonly id: string;
  /** Absolute; where tools run and relative paths resolve. */
  readonly cwd: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly history: History;
  /** Tool names the user allowed for the rest of this session. */
  readonly grants: ReadonlySet<string>;
  /** The model's reported input tokens of the last step; undefined once forgotten. */
  readonly lastInputTokens: number | undefined;
};

/** A new session value with no grants and no token count. */
export const sessionOf = (id: string, cwd: string, history: History, createdAt: number): Session => ({
  id,
  cwd,
  createdAt,
  history,
  grants: new Set(),
  lastInputTokens: undefined,
});
