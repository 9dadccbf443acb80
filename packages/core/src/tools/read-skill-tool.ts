/** `read_skill {name}`: a skill's instructions and the list of its other files. Never gated. */
import { ok } from "neverthrow";
import { asObject, requiredString } from "./input.js";
import { completed, failed, noPreview, type Tool } from "./tool.js";

export type ReadSkillInput = { readonly name: string };

export const readSkillTool: Tool<ReadSkillInput> = {
  spec: {
    name: "read_skill",
    description: "Read a skill of the catalogue: its instructions and the files it ships (scripts you can run with bash).",
    inputSchema: {
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    },
  },
  gated: false,
  parse: (input) => asObject(input).andThen((fields) => requiredString(fields, "name").andThen((name) => ok({ name }))),
  locations: () => [],
  preview: noPreview,
  run: async (input, ctx) =>
    (await ctx.skills.read(input.name)).match(
      (skill) => {
        const files = skill.files.length === 0 ? "(none)" : skill.files.map((f) => `- ${skill.dir}/${f}`).join("\n");
        return completed(`# Skill: ${skill.name}\nFolder: ${skill.dir}\n\n${skill.instructions}\n\n## Files\n${files}\n`);
      },
      (e) =>
        failed(
          e.kind === "unknown-skill"
            ? `[no skill named "${e.name}"; available: ${ctx.skills.list().map((s) => s.name).join(", ") || "none"}]`
            : `[read_skill failed: ${e.message}]`,
        ),
    ),
};
