/**
 * The shapes mm always asks about, whatever the rules and the mode (except `all`): what users expect
 * an agent to stop at. Each check names the shape, for the log and the docs.
 */
import { isInside, resolvePath } from "../paths/path.js";
import type { CommandShape, SimpleCommand } from "./command-shape.js";
import { programName } from "./command-rule.js";

/**
 * Where relative paths resolve (the cwd), and what counts as the project: the cwd and the session's
 * additional directories (`roots`, ACP `additionalDirectories`: the editor gave them to the session).
 */
export type Place = {
  readonly cwd: string;
  readonly home?: string | undefined;
  readonly roots?: readonly string[] | undefined;
  /** Where relative paths resolve when not the cwd (after a `cd`, `movedBy`). */
  readonly at?: string | undefined;
  /** mm's own config and state directories: outside the project even where it holds them (a session in `$HOME`). */
  readonly guarded?: readonly string[] | undefined;
};

/** The built-in list, as the docs print it. */
export const ALWAYS_ASKED: readonly string[] = [
  "sudo (and su, doas, pkexec)",
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
  const target = resolvePath(place.at ?? place.cwd, path, place.home);
  if ((place.guarded ?? []).some((dir) => isInside(dir, target))) return true;
  return !isInside(place.cwd, target) && !(place.roots ?? []).some((root) => isInside(root, target));
};

const operands = (command: SimpleCommand): readonly { readonly word: string; readonly literal: boolean }[] =>
  command.words.slice(1).flatMap((word, i) => (word.startsWith("-") ? [] : [{ word, literal: i + 1 < command.literalWords }]));

const recursive = (command: SimpleCommand): boolean => command.words.slice(1).some((w) => w === "--recursive" || (/^-[a-zA-Z]+$/.test(w) && /[rR]/.test(w)));

/** `git`'s options that take the next word (`git -C dir push`). */
const GIT_OPTIONS_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"]);

/** The word where `git`'s subcommand stands (after its own options), or undefined. */
const gitSubcommand = (command: SimpleCommand): number | undefined => {
  for (let i = 1; i < command.words.length; i++) {
    const word = command.words[i] ?? "";
    if (GIT_OPTIONS_WITH_VALUE.has(word)) i++;
    else if (!word.startsWith("-")) return i;
  }
  return undefined;
};

/** True when `words` hold `rule`'s words after the program, in order (`npm --registry x publish` holds `npm publish`). */
const holds = (command: SimpleCommand, rule: string): boolean => {
  const [program, ...rest] = rule.split(" ");
  if (programName(command.words[0] ?? "") !== program) return false;
  let at = 1;
  for (const word of rest) {
    const found = command.words.indexOf(word, at);
    if (found === -1) return false;
    at = found + 1;
  }
  return true;
};

/** Where cp/mv/ln/install write: `-t dir`, `--target-directory=dir`, else the last operand. */
const destination = (command: SimpleCommand): { readonly word: string; readonly literal: boolean } | undefined => {
  const words = command.words;
  // rsync's -t keeps times; its destination is the last operand.
  if (programName(words[0] ?? "") === "rsync") return operands(command).at(-1);
  for (let i = 1; i < words.length; i++) {
    const word = words[i] ?? "";
    const literal = i < command.literalWords;
    if ((word === "-t" || word === "--target-directory") && i + 1 < words.length) return { word: words[i + 1] ?? "", literal: i + 1 < command.literalWords };
    if (word.startsWith("--target-directory=")) return { word: word.slice("--target-directory=".length), literal };
    if (/^-[a-zA-Z]*t./.test(word) && !word.startsWith("--")) return { word: word.slice(word.indexOf("t") + 1), literal };
  }
  return operands(command).at(-1);
};

/** Why one simple command is always asked about, or undefined. */
const askedCommand = (command: SimpleCommand, place: Place): string | undefined => {
  // A program word the shell expands (`${G:-git} push`, `/usr/bin/gi? push`): it could be anything on the list.
  if (command.words.length > 0 && command.literalWords === 0) return "a program word the shell expands";
  const program = programName(command.words[0] ?? "");
  if (program === "sudo" || program === "su" || program === "doas" || program === "pkexec") return program;
  if (program === "git") {
    if (command.words.includes("push")) return "git push";
    const sub = gitSubcommand(command);
    if (sub !== undefined && sub >= command.literalWords) return "git push (a subcommand the shell expands)";
    if (command.words.some((w) => w.includes("alias."))) return "git push (an alias defined for the command)";
  }
  const published = PUBLISHES.find((rule) => holds(command, rule));
  if (published !== undefined) return published;
  if (program === "rm" && recursive(command) && operands(command).some((o) => outside(place, o.word, o.literal))) return "rm -r outside the project";
  if (command.redirects.some((r) => r.writes && outside(place, r.target, r.literal))) return "a write outside the project";
  if (program === "tee" && operands(command).some((o) => outside(place, o.word, o.literal))) return "a write outside the project";
  if (["cp", "mv", "ln", "install", "rsync"].includes(program)) {
    const last = destination(command);
    if (last !== undefined && outside(place, last.word, last.literal)) return "a write outside the project";
  }
  if (program === "dd") {
    const of = command.words.findIndex((w) => w.startsWith("of="));
    if (of !== -1 && outside(place, (command.words[of] ?? "").slice(3), of < command.literalWords)) return "a write outside the project";
  }
  return undefined;
};

/** The cwd after a move the rules cannot follow: no path is inside it. */
export const UNKNOWN_DIR = "/\0unknown";

/** Where relative paths resolve after `command`: `cd dir` moves them; a move the rules cannot follow (`cd "$D"`, `cd -`, `popd`) makes every relative path count as outside. */
export const movedBy = (command: SimpleCommand, place: Place): Place => {
  const program = command.words[0] ?? "";
  if (program !== "cd" && program !== "pushd" && program !== "popd") return place;
  const target = operands(command)[0];
  if (program === "cd" && target === undefined && place.home !== undefined) return { ...place, at: place.home };
  if (program === "popd" || target === undefined || !target.literal || target.word === "-") return { ...place, at: UNKNOWN_DIR };
  const from = place.at ?? place.cwd;
  return { ...place, at: from === UNKNOWN_DIR && !target.word.startsWith("/") ? UNKNOWN_DIR : resolvePath(from, target.word, place.home) };
};

/** Why a parsed command is always asked about (the first shape found), or undefined. */
export const alwaysAsked = (shape: CommandShape, place: Place): string | undefined => {
  if (!shape.parsed) return undefined;
  let here = place;
  for (const command of shape.commands) {
    const why = askedCommand(command, here);
    if (why !== undefined) return why;
    here = movedBy(command, here);
  }
  const programs = shape.commands.map((c) => programName(c.words[0] ?? ""));
  if (programs.some((p) => p === "curl" || p === "wget") && programs.some((p) => SHELLS.has(p))) return "curl|wget … | sh";
  return undefined;
};
