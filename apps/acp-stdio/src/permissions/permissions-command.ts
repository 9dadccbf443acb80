/**
 * `/permissions` (full surface): lists the rules in force for the session's project — those remembered
 * for it (numbered), the configuration's, the built-in always-asked list — each with where it comes
 * from; `/permissions forget N [M…]` and `/permissions forget all` remove remembered ones.
 */
import { ALWAYS_ASKED, type AvailableCommand, type PermissionRules } from "@mm/core";
import type { RuleBook } from "./rule-book.js";

export const PERMISSIONS_COMMAND: AvailableCommand = {
  name: "permissions",
  description: "List the permission rules in force and where each comes from; forget N or forget all removes remembered ones",
  hint: "forget N | forget all",
};

/** The command list with `/permissions` after the built-in commands (a skill of that name is not advertised). */
export const withPermissionsCommand = (commands: readonly AvailableCommand[]): readonly AvailableCommand[] => {
  const others = commands.filter((c) => c.name !== PERMISSIONS_COMMAND.name);
  const builtIn = others.findLastIndex((c) => c.name === "new" || c.name === "compact" || c.name === "undo");
  return [...others.slice(0, builtIn + 1), PERMISSIONS_COMMAND, ...others.slice(builtIn + 1)];
};

const list = (words: readonly string[]): string => (words.length === 0 ? "none" : words.map((w) => `\`${w}\``).join(", "));

/** The arguments of `/permissions …` in `text`, or undefined when `text` is not that command. */
export const permissionsArguments = (text: string): string | undefined => {
  const trimmed = text.trim();
  if (trimmed !== "/permissions" && !trimmed.startsWith("/permissions ")) return undefined;
  return trimmed.slice("/permissions".length).trim();
};

/** The reply to `/permissions <args>` in the project of `cwd`. */
export const runPermissionsCommand = async (
  book: RuleBook,
  configured: PermissionRules,
  cwd: string,
  args: string,
  where: string | undefined,
): Promise<string> => {
  const project = await book.projectOf(cwd);
  const forget = /^forget\s+(.+)$/.exec(args);
  if (forget !== null) {
    const what = forget[1]!.trim();
    const numbers = what === "all" ? "all" : what.split(/[\s,]+/).map(Number);
    if (numbers !== "all" && numbers.some((n) => !Number.isSafeInteger(n) || n < 1))
      return `[permissions: "${what}" is not a rule number; /permissions lists them]`;
    const { removed, problem } = await book.forget(cwd, numbers);
    if (removed.length === 0) return "[permissions: no remembered rule has that number; /permissions lists them]";
    return `🔓 Forgotten for ${project}: ${list(removed)}.${problem !== undefined ? ` (Not saved: ${problem}.)` : ""}`;
  }
  if (args !== "") return '[permissions: "/permissions", "/permissions forget N" or "/permissions forget all"]';
  const remembered = await book.remembered(cwd);
  return [
    `Permission rules in force for ${project}:`,
    "",
    `Remembered for this project${where !== undefined ? ` (${where})` : ""}:`,
    ...(remembered.length === 0 ? ["  none"] : remembered.map((rule, i) => `  ${i + 1}. allow \`${rule}\``)),
    "",
    "From the configuration (allow: your own file only; ask and deny: yours and this project's .mm/config.json):",
    `  allow: ${list(configured.allow)}`,
    `  ask: ${list(configured.ask)}`,
    `  deny: ${list(configured.deny)}`,
    "",
    "Always asked (built in, in every mode but Allow everything):",
    ...ALWAYS_ASKED.map((line) => `  - ${line}`),
    "",
    "`/permissions forget N` or `/permissions forget all` removes remembered rules.",
  ].join("\n");
};
