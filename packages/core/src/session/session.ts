/**
 * A session as a value: its id, cwd, history, allow-always grants, the last reported token count, and
 * what the user chose for it (title, model, permission mode).
 */
import type { History } from "../history/message.js";
import type { PermissionMode } from "../vocabulary/permission-mode.js";

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
  /** One line naming the conversation (from its first prompt); undefined until there is one. */
  readonly title: string | undefined;
  /** The model its steps ask for; undefined: the model adapter's default. */
  readonly model: string | undefined;
  readonly mode: PermissionMode;
  /** The reasoning effort its steps ask for; undefined: the server's default. */
  readonly effort?: string | undefined;
  /** What its model steps cost so far, in US dollars; undefined while no price is known. */
  readonly cost?: number | undefined;
};

/** What a session keeps besides its history: its title, model and permission mode. */
export type SessionSettings = Pick<Session, "title" | "model" | "mode" | "effort" | "cost">;

/** A new session value with no grants and no token count. */
export const sessionOf = (id: string, cwd: string, history: History, createdAt: number, settings: Partial<SessionSettings> = {}): Session => ({
  id,
  cwd,
  createdAt,
  history,
  grants: new Set(),
  lastInputTokens: undefined,
  title: settings.title,
  model: settings.model,
  mode: settings.mode ?? "ask",
  ...(settings.effort !== undefined ? { effort: settings.effort } : {}),
  ...(settings.cost !== undefined ? { cost: settings.cost } : {}),
});
