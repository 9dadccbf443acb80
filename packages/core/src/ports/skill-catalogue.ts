/** The SkillCatalogue port: the skills Bob can read, as folders holding a `SKILL.md`. */
import type { ResultAsync } from "neverthrow";

export type SkillSummary = { readonly name: string; readonly description: string };

export type SkillContent = {
  readonly name: string;
  /** Absolute path of the skill's folder. */
  readonly dir: string;
  /** The body of `SKILL.md`, front matter removed. */
  readonly instructions: string;
  /** The folder's other files, relative to `dir`. */
  readonly files: readonly string[];
};

export type SkillError =
  | { readonly kind: "unknown-skill"; readonly name: string }
  | { readonly kind: "io"; readonly name: string; readonly message: string };

export type SkillCatalogue = {
  /** The catalogue, loaded once; sorted by name. */
  readonly list: () => readonly SkillSummary[];
  readonly read: (name: string) => ResultAsync<SkillContent, SkillError>;
};
