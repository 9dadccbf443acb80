/**
 * Finding and reading the config files: `--config FILE`, else `$MM_CONFIG`, alone; else the user's
 * `$XDG_CONFIG_HOME/mm/config.json` (default `~/.config/mm/config.json`) with the project's
 * `./.mm/config.json` over it (project-config.ts says what the project's may set). Explicit ones must exist.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { err, ok, type Result } from "neverthrow";
import type { ConfigError } from "./config-types.js";
import { fsErrorOf } from "@mm/node";

/** Where the config file is looked for. */
export type ConfigLocation = {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly home: string;
};

/** A file to read; `explicit` when the user named it, so its absence is an error. */
export type ConfigCandidate = { readonly path: string; readonly explicit: boolean };

const badArgument = (message: string): ConfigError => ({ kind: "bad-argument", message: `mm-acp: ${message}` });

/** The value of `--config FILE` / `--config=FILE` (the last one wins); undefined when absent. */
export const configArgument = (argv: readonly string[]): Result<string | undefined, ConfigError> => {
  let found: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? "";
    if (arg === "--") break;
    if (arg.startsWith("--config=")) {
      found = arg.slice("--config=".length);
    } else if (arg === "--config") {
      const next = argv[index + 1];
      if (next === undefined || next.startsWith("-")) return err(badArgument("--config: expected a file path after it"));
      found = next;
      index += 1;
    } else {
      continue;
    }
    if (found === "") return err(badArgument("--config: expected a file path, got an empty one"));
  }
  return ok(found);
};

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === "" ? undefined : value);

/** mm's folder under an XDG base directory: `$<variable>/mm` when that is absolute, else `~/<fallback>/mm`. */
const xdgFolder = (env: ConfigLocation["env"], variable: "XDG_CONFIG_HOME" | "XDG_STATE_HOME", fallback: string, home: string): string => {
  const xdg = nonEmpty(env[variable]);
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, fallback), "mm");
};

/** The user's config file: `$XDG_CONFIG_HOME/mm/config.json` (an absolute one), else `~/.config/mm/config.json`. */
export const userConfigPath = (env: ConfigLocation["env"], home: string): string => join(xdgFolder(env, "XDG_CONFIG_HOME", ".config", home), "config.json");

/** mm's state dir (the undo key): `$XDG_STATE_HOME/mm` (an absolute one), else `~/.local/state/mm`. */
export const userStateDir = (env: ConfigLocation["env"], home: string): string => xdgFolder(env, "XDG_STATE_HOME", join(".local", "state"), home);

/** The files to read: the one named by `--config` / `$MM_CONFIG` alone, else the user's and the project's that exist. */
export type ConfigFiles =
  | { readonly kind: "explicit"; readonly path: string }
  | { readonly kind: "found"; readonly user: string | undefined; readonly project: string | undefined };

/** The config files to read, per the discovery order. */
export const findConfigFiles = (location: ConfigLocation): Result<ConfigFiles, ConfigError> =>
  configArgument(location.argv).map((argument): ConfigFiles => {
    const explicit = argument ?? nonEmpty(location.env.MM_CONFIG);
    if (explicit !== undefined) return { kind: "explicit", path: resolve(location.cwd, explicit) };
    const project = join(location.cwd, ".mm", "config.json");
    const user = userConfigPath(location.env, location.home);
    return { kind: "found", user: existsSync(user) ? user : undefined, project: existsSync(project) && project !== user ? project : undefined };
  });

/** The first config file read, per the discovery order (the explicit one, else the project's, else the user's); null when there is none. */
export const findConfigFile = (location: ConfigLocation): Result<ConfigCandidate | null, ConfigError> =>
  findConfigFiles(location).map((files) => {
    if (files.kind === "explicit") return { path: files.path, explicit: true };
    const path = files.project ?? files.user;
    return path === undefined ? null : { path, explicit: false };
  });

const readProblem = (path: string, error: unknown): ConfigError => {
  const fsError = fsErrorOf(path, error);
  switch (fsError.kind) {
    case "not-found":
      return { kind: "missing-file", message: `mm-acp: ${path}: config file not found` };
    case "denied":
      return { kind: "unreadable-file", message: `mm-acp: ${path}: cannot read config file: permission denied` };
    case "is-directory":
      return { kind: "unreadable-file", message: `mm-acp: ${path}: cannot read config file: it is a directory` };
    default:
      return { kind: "unreadable-file", message: `mm-acp: ${path}: cannot read config file: ${fsError.kind === "io" ? fsError.message : fsError.kind}` };
  }
};

const firstLine = (text: string): string => text.split("\n", 1)[0] ?? text;

/** The parsed JSON of a config file. */
export const readConfigFile = (path: string): Result<unknown, ConfigError> => {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return err(readProblem(path, error));
  }
  return parseConfigText(path, text);
};

/** The most a project's config file may hold: far above any real one. */
export const PROJECT_CONFIG_MAX_BYTES = 1 << 20;

/**
 * The text of the project's `.mm/config.json` (`path`, in `cwd`), read as hostile input: a repository
 * or a command wrote it. `.mm` must be a directory and the file a regular one, opened without following
 * a link (a link to `~/.ssh/id_rsa` made mm read the key, and from Node 22 on the JSON error quotes
 * a file's first characters; a FIFO or `/dev/zero` hung or filled the start-up), of at most 1 MiB. Why
 * not, in a few words: the project's file is then left out, and mm starts on the user's.
 */
export const readProjectConfigText = (cwd: string, path: string): Result<string, string> => {
  try {
    if (!lstatSync(join(cwd, ".mm")).isDirectory()) return err(".mm is not a directory (a link or a file)");
    const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) return err("not a regular file");
      if (info.size > PROJECT_CONFIG_MAX_BYTES) return err(`larger than ${PROJECT_CONFIG_MAX_BYTES} bytes`);
      return ok(readFileSync(fd, "utf8"));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") return err("a symbolic link");
    const fsError = fsErrorOf(path, error);
    return err(fsError.kind === "io" ? fsError.message : fsError.kind === "denied" ? "permission denied" : fsError.kind.replace("-", " "));
  }
};

/** The parsed JSON of a config file's text. */
export const parseConfigText = (path: string, text: string): Result<unknown, ConfigError> => {
  try {
    return ok(JSON.parse(text.replace(/^\uFEFF/, "")) as unknown);
  } catch (error) {
    const reason = error instanceof Error ? firstLine(error.message) : String(error);
    return err({ kind: "invalid-json", message: `mm-acp: ${path}: invalid JSON: ${reason}` });
  }
};
