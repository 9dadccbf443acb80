/** The SkillCatalogue port: the skills Bob can read, as folders holding a `SKILL.md`. */
import type { ResultAsync } from "neverthrow";

/** A skill as listed: its name and when to use it. */
export type SkillSummary = { readonly name: string; readonly description: string };

/** A skill as read: its instructions and files. */
export type SkillContent = {
  readonly name: string;
  /** Absolute path of the skill's folder. */
  readonly dir: string;
  /** The body of `SKILL.md`, front matter removed. */
  readonly instructions: string;
  /** The folder's other files, relative to `dir`. */
  readonly files: readonly string[];
};

/** Why a skill could not be read. */
export type SkillError = { readonly kind: "unknown-skill"; readonly name: string } | { readonly kind: "io"; readonly name: string; readonly message: string };

/** The SkillCatalogue port. */
export type SkillCatalogue = {
  /** The catalogue, loaded once; sorted by name. */
  readonly list: () => readonly SkillSummary[];
  readonly read: (name: string) => ResultAsync<SkillContent, SkillError>;
};
