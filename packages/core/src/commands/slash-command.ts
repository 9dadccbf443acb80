/** Recognises the slash commands `session/prompt` intercepts: exactly `/new` or `/compact`, trimmed. */

/** The slash commands intercepted by `session/prompt`. */
export type SlashCommand = "new" | "compact";

/** The intercepted commands, in the order they are advertised. */
export const INTERCEPTED: readonly SlashCommand[] = ["new", "compact"];

/** The command a prompt is, when its trimmed text is exactly `/new` or `/compact`. */
export const slashCommandOf = (text: string): SlashCommand | undefined => {
  const trimmed = text.trim();
  return trimmed === "/new" ? "new" : trimmed === "/compact" ? "compact" : undefined;
};

/** A command a front end offers in its `/` menu (a `hint` when it takes input). */
export type AvailableCommand = {
  readonly name: string;
  readonly description: string;
  readonly hint?: string;
};

/**
 * `/undo`, `/undo force`, `/undo N`, `/undo N force` (or `/undo force N`), trimmed: how many turns
 * (N, digits; 0 is answered, not sent to the model) and whether forced. The agent intercepts it only
 * when it can undo.
 */
export const undoCommandOf = (text: string): { readonly force: boolean; readonly count: number } | undefined => {
  const words = text.trim().split(/\s+/);
  if (words[0] !== "/undo" || words.length > 3) return undefined;
  const rest = words.slice(1);
  const force = rest.includes("force");
  const numbers = rest.filter((word) => word !== "force");
  if (rest.filter((word) => word === "force").length > 1 || numbers.length > 1) return undefined;
  const [number] = numbers;
  if (number === undefined) return { force, count: 1 };
  return /^\d{1,6}$/.test(number) ? { force, count: Number(number) } : undefined;
};

/** The input hint of `/undo`. */
export const UNDO_HINT = "N turns (1 if none), then force to restore files changed since";

/** What the front end offers beside `/new`, `/compact` and the skills. */
export type CommandOptions = {
  /** `/undo` (the full surface, with an undo store). */
  readonly undo?: boolean;
};

const interceptedWith = (options: CommandOptions): readonly string[] => (options.undo === true ? [...INTERCEPTED, "undo"] : INTERCEPTED);

/** The input hint of every skill's command. */
export const SKILL_HINT = "parameters, if this skill needs any";

/** The skills offered as commands: all but those a real command shadows. */
export const advertisedSkills = <S extends { readonly name: string }>(skills: readonly S[], options: CommandOptions = {}): readonly S[] =>
  skills.filter((s) => !interceptedWith(options).includes(s.name));

/** What the front end handles: the intercepted commands, then one command per advertised skill. */
export const availableCommands = (skills: readonly { name: string; description: string }[], options: CommandOptions = {}): readonly AvailableCommand[] => [
  { name: "new", description: "Clear the history and start a new session" },
  { name: "compact", description: "Compress the history now, keeping the last turns" },
  ...(options.undo === true
    ? [{ name: "undo", description: "Take back the last turn (or the last N): the files it changed and the conversation", hint: UNDO_HINT }]
    : []),
  ...advertisedSkills(skills, options).map((s) => ({ name: s.name, description: s.description, hint: SKILL_HINT })),
];

/** Skills a real command shadows: not advertised, and the banner says so. */
export const shadowedSkills = (skills: readonly { name: string }[], options: CommandOptions = {}): readonly string[] =>
  skills.map((s) => s.name).filter((name) => interceptedWith(options).includes(name));
