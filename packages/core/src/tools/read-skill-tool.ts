/** `read_skill {name}`: a skill's instructions and the list of its other files. Never gated. */
import { object } from "../schema/object.js";
import { string } from "../schema/schema.js";
import { completed, defineTool, failed } from "./tool.js";

/** `read_skill`: never gated, counts as a skill. */
export const readSkillTool = defineTool({
  name: "read_skill",
  description: "Read a skill of the catalogue: its instructions and the files it ships (scripts you can run with bash).",
  guidance: "read a skill's instructions before following it.",
  kind: "read",
  counts: "skill",
  gated: false,
  input: object({ name: string() }),
  title: (input) => `read_skill: ${input.name}`,
  run: async (input, ctx) =>
    (await ctx.skills.read(input.name)).match(
      (skill) => {
        const files = skill.files.length === 0 ? "(none)" : skill.files.map((f) => `- ${skill.dir}/${f}`).join("\n");
        return completed(`# Skill: ${skill.name}\nFolder: ${skill.dir}\n\n${skill.instructions}\n\n## Files\n${files}\n`);
      },
      (e) =>
        failed(
          e.kind === "unknown-skill"
            ? `[no skill named "${e.name}"; available: ${
                ctx.skills
                  .list()
                  .map((s) => s.name)
                  .join(", ") || "none"
              }]`
            : `[read_skill failed: ${e.message}]`,
        ),
    ),
});
