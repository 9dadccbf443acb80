/**
 * `session/load`: read the stored session, put the current system prompt in front, register it with
 * an empty allow-always set, move the call-id counter past it, and say what to replay.
 */
import { errAsync, ResultAsync } from "neverthrow";
import { withSystemPrompt } from "../history/message.js";
import type { StoreError } from "../ports/session-store.js";
import { replayOf, type ReplayItem } from "../session/replay.js";
import { createSession, type Session } from "../session/session.js";
import type { Agent } from "./agent.js";
import { systemPromptFor } from "./system-prompt-for.js";

export type LoadError = StoreError | { readonly kind: "disabled" };

export type Loaded = { readonly session: Session; readonly replay: readonly ReplayItem[] };

export const loadSession = (agent: Agent, cwd: string, id: string): ResultAsync<Loaded, LoadError> => {
  const store = agent.deps.store;
  if (store === undefined) return errAsync({ kind: "disabled" });
  return store.load(cwd, id).andThen((stored) =>
    ResultAsync.fromSafePromise(systemPromptFor(agent, cwd)).map((prompt) => {
      const history = withSystemPrompt(stored.history, prompt);
      agent.deps.callIds.bumpPast(history);
      const previous = agent.sessions.get(id);
      if (previous !== undefined) for (const c of previous.inFlight) c.abort();
      const session = createSession(id, cwd, history, stored.createdAt, agent.deps.sessionFs?.(id));
      agent.sessions.set(id, session);
      return { session, replay: replayOf(history, cwd) };
    }),
  );
};
