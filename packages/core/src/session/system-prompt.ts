/** Bob's system prompt: who he is, where he works, how to use his tools, the skills, the AGENTS.md files. */
import { resolvePath } from "../paths/path.js";
import type { SkillSummary } from "../ports/skill-catalogue.js";
import type { Tool } from "../tools/tool.js";

/** What the system prompt is made of. */
export type SystemPromptInput = {
  readonly cwd: string;
  /** The session's additional directories (ACP `additionalDirectories`), named after the working directory when there are any. */
  readonly roots?: readonly string[];
  /** ISO date, e.g. 2026-11-30. */
  readonly date: string;
  readonly os: string;
  /** The session's tools, in the order the model is offered them. */
  readonly tools: readonly Tool[];
  readonly skills: readonly SkillSummary[];
  /** The AGENTS.md files read, from the repository root down to the cwd (nearest last); the cwd's alone as a string. */
  readonly agentsMd: string | readonly AgentsMd[] | undefined;
};

/** One AGENTS.md read: its absolute path and text. */
export type AgentsMd = { readonly path: string; readonly text: string };

const skillSection = (skills: readonly SkillSummary[]): string =>
  skills.length === 0
    ? "No skills are installed."
    : `Skills are procedures written down for you. Available skills:\n${skills.map((s) => `- ${s.name}: ${s.description}`).join("\n")}
When a user message contains a line \`[use skill: NAME]\`, call read_skill with that name first, then follow the skill, taking the words after \`$NAME\` in the message as its parameters. Read a skill also whenever its description fits the task.`;

const INSTRUCTIONS = "## Project instructions (AGENTS.md)";

/** The AGENTS.md section: the cwd's file alone as it is; several (or one above the cwd) each under its path, nearest last. */
const agentsMdSection = (cwd: string, agentsMd: SystemPromptInput["agentsMd"]): string => {
  const files = (typeof agentsMd === "string" ? [{ path: resolvePath(cwd, "AGENTS.md"), text: agentsMd }] : (agentsMd ?? [])).filter(
    (f) => f.text.trim() !== "",
  );
  const only = files[0];
  if (only === undefined) return "";
  if (files.length === 1 && only.path === resolvePath(cwd, "AGENTS.md")) return `\n\n${INSTRUCTIONS}\n${only.text.trim()}`;
  return `\n\n${INSTRUCTIONS}\nFrom the repository root down to the working directory; where they disagree, the later (nearer) file wins.${files
    .map((f) => `\n\n### ${f.path}\n${f.text.trim()}`)
    .join("")}`;
};

const listed = (names: readonly string[]): string => (names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`);

const toolSection = (tools: readonly Tool[]): string => {
  const gated = tools.filter((t) => t.gated).map((t) => t.spec.name);
  return [
    ...tools.map((t) => `- ${t.spec.name}: ${t.guidance}`),
    ...(gated.length > 0
      ? [
          `The user is asked before ${listed(gated)} run; a call answered "[command rejected by the user]" was refused: do not retry it unchanged, ask or take another way.`,
        ]
      : []),
  ].join("\n");
};

/** Bob's system prompt. */
export const buildSystemPrompt = (input: SystemPromptInput): string => `You are Bob, a bash-first coding agent working inside the user's editor.
Working directory: ${input.cwd}${(input.roots ?? []).length > 0 ? `\nAdditional directories (yours to read and change as the working directory): ${(input.roots ?? []).join(", ")}` : ""}
Date: ${input.date}
OS: ${input.os}

## Tools
${toolSection(input.tools)}
Relative paths are resolved against the working directory. Be concise; say what you did and what is left.

## Skills
${skillSection(input.skills)}${agentsMdSection(input.cwd, input.agentsMd)}
`;
