/** A live session: its id, cwd, history, allow-always grants and the turns it has in flight. */
import type { History } from "../history/message.js";
import type { FileSystem } from "../ports/file-system.js";

export type Session = {
  readonly id: string;
  readonly cwd: string;
  history: History;
  /** Tool names the user allowed for the rest of this session. */
  readonly grants: Set<string>;
  /** The model's reported input tokens of the last step; undefined once forgotten. */
  lastInputTokens: number | undefined;
  /** One controller per prompt running or queued; `session/cancel` aborts them all. */
  readonly inFlight: Set<AbortController>;
  readonly createdAt: number;
  /** The session's own file access for tools (e.g. through the editor), when not the agent's. */
  readonly fs: FileSystem | undefined;
};

export const createSession = (
  id: string,
  cwd: string,
  history: History,
  createdAt: number,
  fs?: FileSystem,
): Session => ({
  id,
  cwd,
  history,
  grants: new Set(),
  lastInputTokens: undefined,
  inFlight: new Set(),
  createdAt,
  fs,
});

/** Aborts everything the session has running or queued. */
export const cancelSession = (session: Session): void => {
  for (const controller of session.inFlight) controller.abort();
};
