/**
 * Permission rules for bash: a rule is leading words (`npm test`); a command matches it when its words
 * begin with the rule's words. The rule the dialog offers for a command is derived from its words:
 * program and subcommand for tools that have subcommands, the program alone otherwise, none for
 * programs that run other commands (`sudo`, `eval`, `sh -c`, `xargs`…).
 */
import type { SimpleCommand } from "./command-shape.js";

/** The words of a rule as the user writes it (`"npm  test"` → `["npm", "test"]`). */
export const ruleWords = (rule: string): readonly string[] =>
  rule
    .trim()
    .split(/\s+/)
    .filter((w) => w !== "");

/** A rule's canonical text: its words joined by one space. */
export const ruleText = (rule: string): string => ruleWords(rule).join(" ");

/** Programs that run another command given in their arguments: a rule for them would cover anything. */
export const RUNS_OTHER_COMMANDS: ReadonlySet<string> = new Set([
  "sudo",
  "su",
  "doas",
  "eval",
  "exec",
  "source",
  ".",
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "env",
  "xargs",
  "nohup",
  "time",
  "timeout",
  "nice",
  "ionice",
  "command",
  "builtin",
  "watch",
  "strace",
  "chroot",
  "setsid",
  "parallel",
  "stdbuf",
  "unbuffer",
  "flock",
  "taskset",
  "chrt",
  "script",
  "ssh",
  "unshare",
  "nsenter",
  "runuser",
  "pkexec",
  "systemd-run",
  "fakeroot",
  "firejail",
  "busybox",
  "toybox",
  "expect",
]);

/** The program a command runs, as the lists name it: `/usr/bin/git` is `git`. */
export const programName = (word: string): string => word.slice(word.lastIndexOf("/") + 1);

/** `find`'s actions that run a command or delete/write files: a rule for `find` must not cover them. */
const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);

/** True when the command runs another command given in its words (`env rm`, `/usr/bin/env rm`, `find -exec`). */
export const runsOtherCommand = (command: SimpleCommand): boolean => {
  const program = programName(command.words[0] ?? "");
  if (RUNS_OTHER_COMMANDS.has(program)) return true;
  return program === "find" && command.words.some((w) => FIND_ACTIONS.has(w));
};

/** Programs whose first argument is a subcommand (`git status`); the value: subcommands taking a further word. */
const SUBCOMMANDS: ReadonlyMap<string, ReadonlySet<string>> = new Map<string, ReadonlySet<string>>([
  ["git", new Set()],
  ["npm", new Set(["run", "run-script", "exec"])],
  ["pnpm", new Set(["run", "exec", "dlx"])],
  ["yarn", new Set(["run", "exec", "dlx"])],
  ["bun", new Set(["run", "x"])],
  ["npx", new Set()],
  ["cargo", new Set()],
  ["go", new Set(["mod", "tool"])],
  ["docker", new Set(["compose", "container", "image", "volume", "network", "buildx"])],
  ["podman", new Set(["compose", "container", "image", "volume", "network"])],
  ["kubectl", new Set()],
  ["gh", new Set(["pr", "issue", "repo", "release", "run", "workflow"])],
  ["make", new Set()],
  ["just", new Set()],
  ["deno", new Set()],
  ["dotnet", new Set()],
  ["pip", new Set()],
  ["pip3", new Set()],
  ["uv", new Set(["pip", "tool"])],
  ["poetry", new Set()],
  ["mvn", new Set()],
  ["gradle", new Set()],
  ["rustup", new Set()],
  ["systemctl", new Set()],
  ["apt", new Set()],
  ["apt-get", new Set()],
  ["brew", new Set()],
  ["corepack", new Set(["pnpm", "yarn"])],
]);

const isOption = (word: string): boolean => word.startsWith("-") || word.startsWith("+");

/**
 * The rule offered for a simple command, or undefined when none is (a program that runs others, a
 * program word that is not plain text, an option where the subcommand should be).
 */
export const ruleFor = (command: SimpleCommand): string | undefined => {
  const words = command.words.slice(0, command.literalWords);
  const program = words[0];
  if (program === undefined || program === "" || RUNS_OTHER_COMMANDS.has(programName(program)) || program.includes("=")) return undefined;
  const deeper = SUBCOMMANDS.get(program);
  if (deeper === undefined) return program;
  const sub = words[1];
  if (sub === undefined) return program;
  if (isOption(sub)) return undefined;
  if (!deeper.has(sub)) return `${program} ${sub}`;
  const third = words[2];
  if (third === undefined) return `${program} ${sub}`;
  return isOption(third) ? undefined : `${program} ${sub} ${third}`;
};

/** True when the command's plain leading words begin with the rule's words (`npm test` covers `npm test -- --watch`, not `npm testing`). */
export const matchesRule = (command: SimpleCommand, rule: string): boolean => {
  const words = ruleWords(rule);
  if (words.length === 0 || words.length > command.literalWords) return false;
  return words.every((word, i) => command.words[i] === word);
};
