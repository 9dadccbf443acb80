/**
 * What a project's `.mm/config.json` may set. The project's folder is anyone's: a cloned repository,
 * or a command the model ran, can write that file. So, unless the user trusts the project in their
 * own file (`"projects": {"trusted": ["/abs/path"]}` in `~/.config/mm/config.json`), a project's file
 * may only narrow the user's: lower a limit, add hidden paths and variables, drop writable directories
 * or skill folders, turn the sandbox on, the network or sessions off, keep the spec surface. Anything
 * that would widen what runs, what is kept or what a stranger can reach (raise a limit, turn sessions
 * or the full surface on, choose where the key goes or where files are written) is left out and named
 * in one line at start-up. The anchors: VS Code's workspace trust, Codex's project trust.
 */
import { resolve } from "node:path";
import { DEFAULT_MODEL, DEFAULT_SKILL_DIRS, DEFAULT_THRESHOLD_RATIO, DEFAULTS } from "./config-defaults.js";
import type { FileConfig } from "./config-schema.js";

/** How an untrusted project's value of a key is taken, given the user's own file. */
type Rule =
  /** Never from an untrusted project: where the key goes, which variable holds it, where files are written, trust itself. */
  | { readonly kind: "never" }
  /** Taken when not above the user's value: a limit. */
  | { readonly kind: "at-most"; readonly yours: (user: FileConfig) => number }
  /** Taken when it is `narrow`, or the user's own value (no change). */
  | { readonly kind: "only"; readonly narrow: unknown; readonly yours: (user: FileConfig) => unknown }
  /** Added to the user's list: more hidden paths or variables. */
  | { readonly kind: "adds"; readonly yours: (user: FileConfig) => readonly string[] }
  /** Taken when every entry is one of the user's (the same path once resolved): fewer directories. */
  | { readonly kind: "some-of"; readonly yours: (user: FileConfig) => readonly string[] }
  /** Behaviour that reaches nothing new: which of the user's server's models, its API, how its answer is read. */
  | { readonly kind: "free" };

const contextWindowOf = (user: FileConfig): number => user.model?.contextWindow ?? DEFAULT_MODEL.contextWindow;

/**
 * Every key of the schema, by section (a test checks none is missing). A key not listed here (one added
 * later and not yet placed) is refused from an untrusted project, as the safe default.
 */
export const RULES: Readonly<Record<string, Readonly<Record<string, Rule>>>> = {
  model: {
    name: { kind: "free" },
    baseURL: { kind: "never" },
    apiKeyEnv: { kind: "never" },
    api: { kind: "free" },
    provider: { kind: "free" },
    contextWindow: { kind: "at-most", yours: contextWindowOf },
    choices: { kind: "free" },
    vision: { kind: "only", narrow: false, yours: (user) => user.model?.vision ?? DEFAULT_MODEL.vision },
    reasoningTag: { kind: "free" },
    reasoning: { kind: "free" },
    // What the user pays is the user's to say: a project's prices would make the cost shown a lie.
    pricing: { kind: "never" },
  },
  sessions: {
    enabled: { kind: "only", narrow: false, yours: (user) => user.sessions?.enabled ?? DEFAULTS.sessions.enabled },
    dir: { kind: "never" },
  },
  context: {
    threshold: { kind: "at-most", yours: (user) => user.context?.threshold ?? Math.floor(contextWindowOf(user) * DEFAULT_THRESHOLD_RATIO) },
    keepLastTurns: { kind: "at-most", yours: (user) => user.context?.keepLastTurns ?? DEFAULTS.context.keepLastTurns },
  },
  skills: { dirs: { kind: "some-of", yours: (user) => user.skills?.dirs ?? DEFAULT_SKILL_DIRS } },
  tools: {
    bashTimeoutSeconds: { kind: "at-most", yours: (user) => user.tools?.bashTimeoutSeconds ?? DEFAULTS.tools.bashTimeoutSeconds },
    maxOutputBytes: { kind: "at-most", yours: (user) => user.tools?.maxOutputBytes ?? DEFAULTS.tools.maxOutputBytes },
    maxImageBytes: { kind: "at-most", yours: (user) => user.tools?.maxImageBytes ?? DEFAULTS.tools.maxImageBytes },
    maxSessionImageBytes: { kind: "at-most", yours: (user) => user.tools?.maxSessionImageBytes ?? DEFAULTS.tools.maxSessionImageBytes },
    sandbox: { kind: "only", narrow: "workspace", yours: (user) => user.tools?.sandbox ?? DEFAULTS.tools.sandbox },
    writable: { kind: "some-of", yours: (user) => user.tools?.writable ?? DEFAULTS.tools.writable },
    network: { kind: "only", narrow: false, yours: (user) => user.tools?.network ?? DEFAULTS.tools.network },
    hidden: { kind: "adds", yours: (user) => user.tools?.hidden ?? DEFAULTS.tools.hidden },
    hiddenEnv: { kind: "adds", yours: (user) => user.tools?.hiddenEnv ?? DEFAULTS.tools.hiddenEnv },
  },
  turn: { maxSteps: { kind: "at-most", yours: (user) => user.turn?.maxSteps ?? DEFAULTS.turn.maxSteps } },
  loop: { repeats: { kind: "at-most", yours: (user) => user.loop?.repeats ?? DEFAULTS.loop.repeats } },
  acp: { surface: { kind: "only", narrow: "spec", yours: (user) => user.acp?.surface ?? DEFAULTS.acp.surface } },
  projects: { trusted: { kind: "never" } },
  // config.ts refuses `allow` from any project's file and adds its `ask` and `deny` to the user's.
  permissions: {
    allow: { kind: "never" },
    ask: { kind: "adds", yours: (user) => user.permissions?.ask ?? [] },
    deny: { kind: "adds", yours: (user) => user.permissions?.deny ?? [] },
  },
};

/** Whether the user's file trusts the project at `cwd`. */
export const isTrusted = (user: FileConfig, cwd: string, home: string): boolean =>
  (user.projects?.trusted ?? []).some((path) => resolve(path.startsWith("~/") ? `${home}/${path.slice(2)}` : path) === resolve(cwd));

/** Why an untrusted project's value was left out, or the value taken (`keep`). */
type Verdict = { readonly keep: unknown } | { readonly refused: string };

const judge = (rule: Rule | undefined, value: unknown, user: FileConfig, expand: (path: string) => string): Verdict => {
  if (rule === undefined || rule.kind === "never") return { refused: "a project's configuration may not set it" };
  switch (rule.kind) {
    case "free":
      return { keep: value };
    case "at-most": {
      const yours = rule.yours(user);
      return typeof value === "number" && value <= yours ? { keep: value } : { refused: `a project's configuration may only lower it (yours: ${yours})` };
    }
    case "only": {
      const yours = rule.yours(user);
      return value === rule.narrow || value === yours
        ? { keep: value }
        : { refused: `a project's configuration may only set it to ${JSON.stringify(rule.narrow)} (yours: ${JSON.stringify(yours)})` };
    }
    case "adds":
      return { keep: [...new Set([...rule.yours(user), ...(value as readonly string[])])] };
    case "some-of": {
      const yours = new Set(rule.yours(user).map(expand));
      return (value as readonly string[]).every((path) => yours.has(expand(path)))
        ? { keep: value }
        : { refused: `a project's configuration may only keep some of yours (${JSON.stringify(rule.yours(user))})` };
    }
  }
};

/**
 * `project` narrowed to what an untrusted project may set over `user` (the user's own file), and one
 * line naming each key left out. `expand` resolves a directory as the configuration does (`~`, the cwd).
 */
export const untrustedPart = (
  project: FileConfig,
  user: FileConfig,
  path: string,
  cwd: string,
  expand: (path: string) => string,
): { readonly file: FileConfig; readonly notices: readonly string[] } => {
  const notices: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [section, values] of Object.entries(project)) {
    if (section === "$schema") continue;
    if (typeof values !== "object" || values === null || Array.isArray(values)) continue;
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
      if (value === undefined) continue;
      const verdict = judge(RULES[section]?.[key], value, user, expand);
      if ("keep" in verdict) kept[key] = verdict.keep;
      else
        notices.push(
          `mm-acp: ${path}: ${section}.${key} ignored: ${verdict.refused}; set it in your own config file, or trust this project there ("projects": {"trusted": [${JSON.stringify(cwd)}]})`,
        );
    }
    out[section] = kept;
  }
  return { file: out as FileConfig, notices };
};

/** `base` with `over`'s keys on top, section by section. */
export const layered = (base: FileConfig, over: FileConfig): FileConfig => {
  const out: Record<string, unknown> = { ...base };
  for (const [section, values] of Object.entries(over)) {
    const under = (base as Record<string, unknown>)[section];
    out[section] =
      typeof values === "object" && values !== null && !Array.isArray(values) && typeof under === "object" && under !== null ? { ...under, ...values } : values;
  }
  return out as FileConfig;
};
