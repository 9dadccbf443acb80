/**
 * What a project's `.mm/config.json` may set. The project's folder is anyone's: a cloned repository,
 * or a command the model ran, can write that file. So, unless the user trusts the project in their
 * own file (`"projects": {"trusted": ["/abs/path"]}` in `~/.config/mm/config.json`), a project's file
 * is layered over the user's own with the keys that decide where the key is sent, which variable
 * holds it, where session files are written and the sandbox's boundary taken out, each named in one
 * line at start-up. The anchors: VS Code's workspace trust, Codex's project trust.
 */
import { resolve } from "node:path";
import type { FileConfig } from "./config-schema.js";

/** The keys a project's file may not set unless the project is trusted, by section. */
export const UNTRUSTED_KEYS: Readonly<Record<string, readonly string[]>> = {
  model: ["baseURL", "apiKeyEnv"],
  sessions: ["dir"],
  tools: ["sandbox", "writable", "network", "hidden", "hiddenEnv"],
  projects: ["trusted"],
};

/** Whether the user's file trusts the project at `cwd`. */
export const isTrusted = (user: FileConfig, cwd: string, home: string): boolean =>
  (user.projects?.trusted ?? []).some((path) => resolve(path.startsWith("~/") ? `${home}/${path.slice(2)}` : path) === resolve(cwd));

/** `project` without the keys an untrusted project may not set, and a line naming each one dropped. */
export const untrustedPart = (project: FileConfig, path: string, cwd: string): { readonly file: FileConfig; readonly notices: readonly string[] } => {
  const notices: string[] = [];
  const out: Record<string, unknown> = { ...project };
  for (const [section, keys] of Object.entries(UNTRUSTED_KEYS)) {
    const values = (project as Record<string, Record<string, unknown> | undefined>)[section];
    if (values === undefined) continue;
    const kept = { ...values };
    for (const key of keys) {
      if (!(key in kept)) continue;
      delete kept[key];
      notices.push(
        `mm-acp: ${path}: ${section}.${key} ignored: a project's configuration may not set it; set it in your own config file, or trust this project there ("projects": {"trusted": [${JSON.stringify(cwd)}]})`,
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
