/** The SkillCatalogue port on skill folders on disk (`<dir>/<name>/SKILL.md`). */
export { loadDiskSkillCatalogue } from "./disk-skill-catalogue.js";
