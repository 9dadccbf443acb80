/** A SkillCatalogue held in memory. */
import { errAsync, okAsync } from "neverthrow";
import type { SkillCatalogue, SkillContent } from "../ports/skill-catalogue.js";

/** A skill given in memory; its folder and files are optional. */
export type InMemorySkill = { readonly name: string; readonly description: string } & Partial<SkillContent>;

/** A SkillCatalogue of the given skills. */
export const inMemorySkillCatalogue = (skills: readonly InMemorySkill[] = []): SkillCatalogue => {
  const sorted = [...skills].sort((a, b) => a.name.localeCompare(b.name));
  return {
    list: () => sorted.map(({ name, description }) => ({ name, description })),
    read: (name) => {
      const skill = sorted.find((s) => s.name === name);
      return skill === undefined
        ? errAsync({ kind: "unknown-skill", name })
        : okAsync({
            name,
            dir: skill.dir ?? `/skills/${name}`,
            instructions: skill.instructions ?? skill.description,
            files: skill.files ?? [],
          });
    },
  };
};
