/**
 * What the rules say about one call before the mode has its say: `deny` (never run, never asked),
 * `ask` (asked whatever the mode, except `all`), `run` (runs unasked: every simple command matches an
 * allow rule), or `default` (the mode decides). `offer` is the rule the dialog may offer.
 */
import type { PermissionMode } from "../vocabulary/permission-mode.js";
import { alwaysAsked, movedBy, outside, type Place } from "./always-ask.js";
import type { CommandShape, SimpleCommand } from "./command-shape.js";
import { matchesRule, programName, ruleFor, runsOtherCommand } from "./command-rule.js";

/** Rules in force: rule words, `edits` and `reads` for the file tools. */
export type PermissionRules = { readonly allow: readonly string[]; readonly ask: readonly string[]; readonly deny: readonly string[] };

export type Screened = {
  readonly verdict: "deny" | "ask" | "run" | "default";
  /** Why, for the log. */
  readonly why: string;
  /** The rule an "always allow" option would add; absent when none may be offered. */
  readonly offer?: string;
};

/** The file-tool rules. */
export const EDITS_RULE = "edits";
export const READS_RULE = "reads";

/** A rule for one other tool (an MCP server's): `tool:<name>`, matched by the tool's name alone. */
export const TOOL_RULE_PREFIX = "tool:";

const isFileRule = (rule: string): boolean => rule === EDITS_RULE || rule === READS_RULE || rule.startsWith(TOOL_RULE_PREFIX);

const commandRules = (rules: readonly string[]): readonly string[] => rules.filter((r) => !isFileRule(r));

const matchingRule = (command: SimpleCommand, rules: readonly string[]): string | undefined => commandRules(rules).find((rule) => matchesRule(command, rule));

/**
 * For `deny` and `ask` only (where matching more is the safe side): the command as written or with its
 * program by name (`/bin/rm -rf x` meets `deny: ["rm"]`). Allow rules keep the word as written: a
 * project's `./npm` is not `npm`.
 */
const restrictingRule = (command: SimpleCommand, rules: readonly string[]): string | undefined => {
  const program = command.words[0] ?? "";
  const named = programName(program);
  return (
    matchingRule(command, rules) ??
    (named !== program && command.literalWords > 0 ? matchingRule({ ...command, words: [named, ...command.words.slice(1)] }, rules) : undefined)
  );
};

/** What the rules say about a bash command under `mode`. */
export const screenCommand = (shape: CommandShape, rules: PermissionRules, mode: PermissionMode, place: Place): Screened => {
  if (!shape.parsed) return { verdict: mode === "all" ? "default" : "ask", why: `cannot be parsed (${shape.reason})` };
  for (const command of shape.commands) {
    const denied = restrictingRule(command, rules.deny);
    if (denied !== undefined) return { verdict: "deny", why: `denied by the rule "${denied}"` };
  }
  if (mode === "all") return { verdict: "default", why: "mode all" };
  // The rule offered: for the first simple command no allow rule covers yet.
  const uncovered = shape.commands.find((c) => matchingRule(c, rules.allow) === undefined);
  const offered = uncovered === undefined ? undefined : ruleFor(uncovered);
  const builtIn = alwaysAsked(shape, place);
  if (builtIn !== undefined) return { verdict: "ask", why: `always asked: ${builtIn}` };
  for (const command of shape.commands) {
    const asked = restrictingRule(command, rules.ask);
    if (asked !== undefined) return { verdict: "ask", why: `asked by the rule "${asked}"` };
  }
  // The sandbox mode: confined, a command runs unasked unless something in it hides a command the
  // lists above could not see (a substitution, a program that runs another: `sh -c "git push"`).
  if (mode === "sandbox") {
    if (shape.opaque.length > 0) return { verdict: "ask", why: `sandbox mode, but it holds ${shape.opaque.join(", ")}` };
    const runner = shape.commands.find(runsOtherCommand);
    if (runner !== undefined) return { verdict: "ask", why: `sandbox mode, but ${runner.words[0]} runs another command` };
    return { verdict: "run", why: "sandbox mode: runs confined" };
  }
  const offer = offered !== undefined ? { offer: offered } : {};
  if (shape.opaque.length > 0) return { verdict: "default", why: `holds ${shape.opaque.join(", ")}`, ...offer };
  if (shape.commands.length === 0) return { verdict: "default", why: "no command", ...offer };
  let here = place;
  for (const command of shape.commands) {
    const at = here;
    here = movedBy(command, here);
    if (runsOtherCommand(command)) return { verdict: "default", why: `${command.words[0]} runs another command`, ...offer };
    if (command.redirects.some((r) => outside(at, r.target, r.literal))) return { verdict: "default", why: "a redirection outside the project", ...offer };
    if (matchingRule(command, rules.allow) === undefined) return { verdict: "default", why: `no rule covers "${command.words.join(" ")}"`, ...offer };
  }
  return { verdict: "run", why: "every command matches a rule" };
};

/** What the rules say about a file tool's call on `path` (absolute): `edits` for write/edit, `reads` for read. */
export const screenFile = (rule: typeof EDITS_RULE | typeof READS_RULE, path: string, rules: PermissionRules, mode: PermissionMode, place: Place): Screened => {
  if (rules.deny.includes(rule)) return { verdict: "deny", why: `denied by the rule "${rule}"` };
  if (mode === "all") return { verdict: "default", why: "mode all" };
  const out = outside(place, path);
  if (out && rule === EDITS_RULE) return { verdict: "ask", why: "always asked: a write outside the project" };
  if (rules.ask.includes(rule)) return { verdict: "ask", why: `asked by the rule "${rule}"` };
  if (out) return { verdict: "default", why: "a path outside the project" };
  if (mode === "sandbox") return { verdict: "run", why: "sandbox mode: a path inside the project" };
  if (rules.allow.includes(rule)) return { verdict: "run", why: `the rule "${rule}"` };
  return { verdict: "default", why: `no "${rule}" rule`, offer: rule };
};

/** What the rules say about a call of another gated tool (an MCP server's): its `tool:<name>` rule. */
export const screenTool = (name: string, rules: PermissionRules, mode: PermissionMode): Screened => {
  const rule = `${TOOL_RULE_PREFIX}${name}`;
  if (rules.deny.includes(rule)) return { verdict: "deny", why: `denied by the rule "${rule}"` };
  if (mode === "all") return { verdict: "default", why: "mode all" };
  if (rules.ask.includes(rule)) return { verdict: "ask", why: `asked by the rule "${rule}"` };
  if (rules.allow.includes(rule)) return { verdict: "run", why: `the rule "${rule}"` };
  return { verdict: "default", why: `no "${rule}" rule`, offer: rule };
};
