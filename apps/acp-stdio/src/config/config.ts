/**
 * loadConfig: mm's configuration from defaults, one JSON file and the environment (which wins), as
 * one typed value or one printable error line. redactedSummary describes it without the key.
 */
import { homedir } from "node:os";
import { resolve } from "node:path";
import { ok, type Result } from "neverthrow";
import { DEFAULT_MODEL, DEFAULT_SKILL_DIRS, DEFAULT_THRESHOLD_RATIO, DEFAULTS } from "./config-defaults.js";
import { envOverrides, type EnvOverrides } from "./config-env.js";
import { findConfigFiles, parseConfigText, readConfigFile, readProjectConfigText, type ConfigLocation } from "./config-file.js";
import { formatKeyPath, validateFileConfig, type FileConfig } from "./config-schema.js";
import type { ConfigError, LoadedConfig, MmConfig } from "./config-types.js";
import { isTrusted, layered, untrustedPart } from "./project-config.js";

/** What loading looks at: the command line, the environment, the process cwd and the home directory. */
export type ConfigInputs = {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly home: string;
};

/** `~` and `~/x` under `home`; relative paths against `cwd`; absolute ones as they are. */
export const expandPath = (path: string, cwd: string, home: string): string =>
  path === "~" || path.startsWith("~/") ? resolve(home, `.${path.slice(1)}`) : resolve(cwd, path);

const expandHome = (path: string, home: string): string => (path === "~" || path.startsWith("~/") ? resolve(home, `.${path.slice(1)}`) : path);

const validated = (path: string, document: unknown): Result<FileConfig, ConfigError> =>
  validateFileConfig(document).mapErr((problem): ConfigError => {
    const key = formatKeyPath(problem.path);
    return { kind: "invalid-value", message: `mm-acp: ${path}: ${key === "" ? "" : `${key}: `}${problem.message}` };
  });

const fileConfigOf = (path: string): Result<FileConfig, ConfigError> => readConfigFile(path).andThen((document) => validated(path, document));

const merge = (file: FileConfig, env: EnvOverrides, inputs: ConfigInputs): MmConfig => {
  const model = { ...DEFAULT_MODEL, ...file.model };
  return {
    model: {
      ...model,
      name: env.name ?? model.name,
      baseURL: env.baseURL ?? model.baseURL,
      apiKey: env.apiKey,
    },
    sessions: { ...DEFAULTS.sessions, ...file.sessions, dir: expandHome(file.sessions?.dir ?? DEFAULTS.sessions.dir, inputs.home) },
    context: {
      threshold: file.context?.threshold ?? Math.floor(model.contextWindow * DEFAULT_THRESHOLD_RATIO),
      keepLastTurns: file.context?.keepLastTurns ?? DEFAULTS.context.keepLastTurns,
    },
    skills: { dirs: (file.skills?.dirs ?? DEFAULT_SKILL_DIRS).map((dir) => expandPath(dir, inputs.cwd, inputs.home)) },
    tools: {
      ...DEFAULTS.tools,
      ...file.tools,
      writable: (file.tools?.writable ?? DEFAULTS.tools.writable).map((dir) => expandPath(dir, inputs.cwd, inputs.home)),
      hidden: (file.tools?.hidden ?? DEFAULTS.tools.hidden).map((path) => expandHome(path, inputs.home)),
    },
    turn: { ...DEFAULTS.turn, ...file.turn },
    loop: { ...DEFAULTS.loop, ...file.loop },
    acp: { surface: env.surface ?? file.acp?.surface ?? DEFAULTS.acp.surface },
    permissions: { allow: file.permissions?.allow ?? [], ask: file.permissions?.ask ?? [], deny: file.permissions?.deny ?? [] },
  };
};

/**
 * A project's `permissions`, trusted or not: its `allow` refused (a repository never grants itself
 * anything; named in a notice), its `ask` and `deny` added to the user's.
 */
const permissionsOfProject = (project: FileConfig, user: FileConfig, path: string): { readonly file: FileConfig; readonly notices: readonly string[] } => {
  const rules = project.permissions;
  if (rules === undefined) return { file: project, notices: [] };
  const union = (mine: readonly string[] | undefined, theirs: readonly string[] | undefined) => [...new Set([...(mine ?? []), ...(theirs ?? [])])];
  const notices =
    rules.allow !== undefined
      ? [
          `mm-acp: ${path}: permissions.allow ignored: a project's configuration may add ask and deny rules, never allow ones (a repository cannot grant itself anything); put allow rules in your own config file`,
        ]
      : [];
  return {
    file: { ...project, permissions: { ask: union(user.permissions?.ask, rules.ask), deny: union(user.permissions?.deny, rules.deny) } },
    notices,
  };
};

/** The file configuration to use, where it came from, and what was ignored of a project's file. */
type Chosen = { readonly file: FileConfig; readonly source: string | null; readonly notices: readonly string[] };

const chosenFiles = (inputs: ConfigInputs): Result<Chosen, ConfigError> =>
  findConfigFiles(inputs satisfies ConfigLocation).andThen((files): Result<Chosen, ConfigError> => {
    if (files.kind === "explicit") return fileConfigOf(files.path).map((file) => ({ file, source: files.path, notices: [] }));
    const user = files.user === undefined ? ok<FileConfig, ConfigError>({}) : fileConfigOf(files.user);
    return user.andThen((userFile) => {
      if (files.project === undefined) return ok({ file: userFile, source: files.user ?? null, notices: [] });
      const projectPath = files.project;
      // Read as hostile input (config-file.ts): never through a link, nothing but a regular file; else left out, said once.
      const text = readProjectConfigText(inputs.cwd, projectPath);
      if (text.isErr()) {
        const notice = `mm-acp: ${projectPath}: not read: ${text.error}; a project's config must be a regular file in a .mm directory`;
        return ok({ file: userFile, source: files.user ?? null, notices: [notice] });
      }
      return parseConfigText(projectPath, text.value)
        .andThen((document) => validated(projectPath, document))
        .map((asWritten) => {
          const { file: projectFile, notices: refused } = permissionsOfProject(asWritten, userFile, projectPath);
          const trusted = isTrusted(userFile, inputs.cwd, inputs.home);
          const part = trusted
            ? { file: projectFile, notices: [] }
            : untrustedPart(projectFile, userFile, projectPath, inputs.cwd, (dir) => expandPath(dir, inputs.cwd, inputs.home));
          const { projects: _ignored, ...projectKeys } = part.file;
          const source = `${files.user !== undefined ? `${files.user} + ` : ""}${projectPath}${trusted ? " (trusted)" : " (project: may only narrow)"}`;
          return { file: layered(userFile, projectKeys), source, notices: [...refused, ...part.notices] };
        });
    });
  });

/**
 * Loads the configuration. `--config FILE`, else `$MM_CONFIG`, is the one file read; else the user's
 * `$XDG_CONFIG_HOME/mm/config.json` (default `~/.config/mm/config.json`) with the project's
 * `./.mm/config.json` in `cwd` over it, the keys an untrusted project may not set left out
 * (project-config.ts); none at all is fine. `MM_MODEL`, `MM_BASE_URL`/`OPENAI_BASE_URL`, the key
 * variable and `MM_ACP_SURFACE` win over the files. A missing explicit file, bad JSON, an unknown key
 * or a wrong type is a {@link ConfigError}.
 */
export const loadConfig = (inputs: ConfigInputs): Result<LoadedConfig, ConfigError> =>
  chosenFiles(inputs).andThen(({ file, source, notices }) =>
    envOverrides(inputs.env, file.model?.apiKeyEnv ?? DEFAULT_MODEL.apiKeyEnv).map(
      (env): LoadedConfig => ({ config: merge(file, env, inputs), source, notices }),
    ),
  );

/** {@link loadConfig} on this process: its argv (after the script), environment, cwd and home. */
export const loadProcessConfig = (): Result<LoadedConfig, ConfigError> =>
  loadConfig({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), home: homedir() });

const withoutCredentials = (baseURL: string): string => {
  try {
    const url = new URL(baseURL);
    if (url.username === "" && url.password === "") return baseURL;
    url.username = "***";
    url.password = "";
    return url.toString();
  } catch {
    return baseURL;
  }
};

/** One line describing the model and endpoint, e.g. `model gpt-4.1-mini at https://api.openai.com/v1 (chat)`; never the key. */
export const redactedSummary = (config: MmConfig): string => `model ${config.model.name} at ${withoutCredentials(config.model.baseURL)} (${config.model.api})`;
