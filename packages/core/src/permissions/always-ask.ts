/**
 * The shapes mm always asks about, whatever the rules and the mode (except `all`): what users expect
 * an agent to stop at. Each check names the shape, for the log and the docs.
 */
import { isInside, resolvePath } from "../paths/path.js";
import type { CommandShape, SimpleCommand } from "./command-shape.js";
import { matchesRule } from "./command-rule.js";

/**
 * Where relative paths resolve (the cwd), and what counts as the project: the cwd and the session's
 * additional directories (`roots`, ACP `additionalDirectories`: the editor gave them to the session).
 */
export type Place = { readonly cwd: string; readonly home?: string | undefined; readonly roots?: readonly string[] | undefined };

/** The built-in list, as the docs print it. */
export const ALWAYS_ASKED: readonly string[] = [
  "sudo (and su, doas)",
  "anything that publishes: git push in every form, npm/pnpm/yarn/bun publish, cargo publish, docker push, gh release create, twine upload, gem push",
  "curl or wget in the same command as a shell (curl … | sh)",
  "rm -r of a path outside the project",
  "writes outside the project (a redirection, tee, cp/mv/ln/install's destination, or write_file/edit_file)",
];

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "perl", "ruby", "node"]);

const PUBLISHES: readonly string[] = [
  "npm publish",
  "pnpm publish",
  "yarn publish",
  "yarn npm publish",
  "bun publish",
  "cargo publish",
  "docker push",
  "podman push",
  "gh release create",
  "twine upload",
  "gem push",
  "poetry publish",
  "uv publish",
];

/** True for a path (as written) that resolves outside `place.cwd` and its additional directories; an expansion or `~` counts as outside. */
export const outside = (place: Place, path: string, literal = true): boolean => {
  if (!literal || path.startsWith("~")) return true;
  if (path === "/dev/null" || path === "/dev/stdout" || path === "/dev/stderr") return false;
  const target = resolvePath(place.cwd, path, place.home);
  return !isInside(place.cwd, target) && !(place.roots ?? []).some((root) => isInside(root, target));
};

const operands = (command: SimpleCommand): readonly { readonly word: string; readonly literal: boolean }[] =>
  command.words.slice(1).flatMap((word, i) => (word.startsWith("-") ? [] : [{ word, literal: i + 1 < command.literalWords }]));

const recursive = (command: SimpleCommand): boolean => command.words.slice(1).some((w) => w === "--recursive" || (/^-[a-zA-Z]+$/.test(w) && /[rR]/.test(w)));

/** Why one simple command is always asked about, or undefined. */
const askedCommand = (command: SimpleCommand, place: Place): string | undefined => {
  const program = command.words[0] ?? "";
  if (command.literalWords === 0) return undefined;
  if (program === "sudo" || program === "su" || program === "doas") return program;
  if (program === "git" && command.words.includes("push")) return "git push";
  const published = PUBLISHES.find((rule) => matchesRule(command, rule));
  if (published !== undefined) return published;
  if (program === "rm" && recursive(command) && operands(command).some((o) => outside(place, o.word, o.literal))) return "rm -r outside the project";
  if (command.redirects.some((r) => r.writes && outside(place, r.target, r.literal))) return "a write outside the project";
  if (program === "tee" && operands(command).some((o) => outside(place, o.word, o.literal))) return "a write outside the project";
  if (["cp", "mv", "ln", "install", "rsync"].includes(program)) {
    const last = operands(command).at(-1);
    if (last !== undefined && outside(place, last.word, last.literal)) return "a write outside the project";
  }
  return undefined;
};

/** Why a parsed command is always asked about (the first shape found), or undefined. */
export const alwaysAsked = (shape: CommandShape, place: Place): string | undefined => {
  if (!shape.parsed) return undefined;
  for (const command of shape.commands) {
    const why = askedCommand(command, place);
    if (why !== undefined) return why;
  }
  const programs = shape.commands.map((c) => c.words[0] ?? "");
  if (programs.some((p) => p === "curl" || p === "wget") && programs.some((p) => SHELLS.has(p))) return "curl|wget … | sh";
  return undefined;
};
