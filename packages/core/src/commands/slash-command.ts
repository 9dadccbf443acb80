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

/** `/undo` or `/undo force`, trimmed (the agent intercepts it only when it can undo). */
export const undoCommandOf = (text: string): { readonly force: boolean } | undefined => {
  const words = text.trim().split(/\s+/);
  if (words[0] !== "/undo" || words.length > 2) return undefined;
  if (words.length === 1) return { force: false };
  return words[1] === "force" ? { force: true } : undefined;
};

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
  ...(options.undo === true ? [{ name: "undo", description: "Take back the last turn: the files it changed and the conversation" }] : []),
  ...advertisedSkills(skills, options).map((s) => ({ name: s.name, description: s.description, hint: SKILL_HINT })),
];

/** Skills a real command shadows: not advertised, and the banner says so. */
export const shadowedSkills = (skills: readonly { name: string }[], options: CommandOptions = {}): readonly string[] =>
  skills.map((s) => s.name).filter((name) => interceptedWith(options).includes(name));
