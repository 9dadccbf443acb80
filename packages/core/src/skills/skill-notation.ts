/**
 * Skills in a prompt: `/name args` for a skill becomes `$name args`; every `$name` naming a skill
 * gains one `[use skill: name]` line, which the system prompt explains to the model.
 */
import { INTERCEPTED } from "../commands/slash-command.js";

/** `/name args` → `$name args` when `name` is a skill and not a real command; else unchanged. */
export const rewriteSlashSkill = (text: string, skillNames: ReadonlySet<string>): string => {
  const match = /^(\s*)\/([A-Za-z0-9][\w.-]*)(?=\s|$)/.exec(text);
  if (!match) return text;
  const name = match[2]!;
  if (!skillNames.has(name) || (INTERCEPTED as readonly string[]).includes(name)) return text;
  return `${match[1]}$${text.slice(match[0].length - name.length)}`;
};

const DOLLAR = /(?:^|\s)\$([A-Za-z0-9][\w.-]*)/g;

/** The skills a text names with `$name`, in order, once each. */
export const skillsNamed = (text: string, skillNames: ReadonlySet<string>): readonly string[] => {
  const found: string[] = [];
  for (const m of text.matchAll(DOLLAR)) {
    const name = m[1]!;
    if (skillNames.has(name) && !found.includes(name)) found.push(name);
  }
  return found;
};

/** The prompt text with its `/skill` rewritten and one `[use skill: name]` line per named skill. */
export const resolveSkillNotation = (text: string, skillNames: ReadonlySet<string>): string => {
  const rewritten = rewriteSlashSkill(text, skillNames);
  const named = skillsNamed(rewritten, skillNames);
  return named.reduce((t, name) => `${t}\n[use skill: ${name}]`, rewritten);
};
