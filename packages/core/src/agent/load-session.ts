/**
 * `session/load`: read the stored session, put the current system prompt in front, register it with
 * an empty allow-always set, move the call-id counter past it, and say what to replay. A session of
 * that id still running in this process is cancelled first, and the file is read in the turn queue,
 * once that turn has ended and saved: the replay shows what was last saved, and the old turn can
 * never overwrite the loaded session.
 */
import { err, ok, ResultAsync, type Result } from "neverthrow";
import { withSystemPrompt } from "../history/message.js";
import type { StoreError } from "../ports/session-store.js";
import { replayOf, type ReplayItem } from "../session/replay.js";
import { cancelSession, createSession, type Session } from "../session/session.js";
import type { Agent } from "./agent.js";
import { systemPromptFor } from "./system-prompt-for.js";

export type LoadError = StoreError | { readonly kind: "disabled" };

export type Loaded = { readonly session: Session; readonly replay: readonly ReplayItem[] };

const NEVER = new AbortController().signal;

export const loadSession = (agent: Agent, cwd: string, id: string): ResultAsync<Loaded, LoadError> => {
  const store = agent.deps.store;
  if (store === undefined) return new ResultAsync(Promise.resolve(err({ kind: "disabled" } as const)));
  const running = agent.sessions.get(id);
  if (running !== undefined) cancelSession(running);
  const load = async (): Promise<Result<Loaded, LoadError>> => {
    const stored = await store.load(cwd, id);
    if (stored.isErr()) return err(stored.error);
    const history = withSystemPrompt(stored.value.history, await systemPromptFor(agent, cwd));
    agent.deps.callIds.bumpPast(history);
    const session = createSession(id, cwd, history, stored.value.createdAt, agent.deps.sessionFs?.(id));
    agent.sessions.set(id, session);
    return ok({ session, replay: replayOf(history, cwd, agent.settings.home) });
  };
  return new ResultAsync(agent.queue.run(NEVER, load, () => err({ kind: "io", id, message: "cancelled" })));
};
