/**
 * The rules a user chose, per project (its real path): read from the user's state file the first
 * time a project is seen, then kept in memory, each change applied at once to the file as it is
 * then (under its lock, so another mm process's change is kept) and the memory set to the result. A rule holds from
 * the moment it is chosen, in every session of that project — this process's, a loaded or resumed
 * one, the next process's — and nowhere else.
 */
import { realpath } from "node:fs/promises";
import type { RememberedRules } from "@mm/node";

export type RuleBook = {
  /** The project's key: the cwd's real path (the cwd itself when it cannot be resolved). */
  readonly projectOf: (cwd: string) => Promise<string>;
  /** The rules remembered for the project of `cwd`, in the order chosen. */
  readonly remembered: (cwd: string) => Promise<readonly string[]>;
  /** Adds a rule (once); a failure to write it is returned (it still holds in this process). */
  readonly remember: (cwd: string, rule: string) => Promise<string | undefined>;
  /** Removes remembered rules by their 1-based number, or all; returns those removed. */
  readonly forget: (cwd: string, which: readonly number[] | "all") => Promise<{ readonly removed: readonly string[]; readonly problem?: string }>;
};

/** A book over `file` (the user's state file), or in memory only when there is none. */
export const ruleBook = (file: RememberedRules | undefined, warn: (line: string) => void): RuleBook => {
  const projects = new Map<string, Promise<string[]>>();
  const projectOf = async (cwd: string): Promise<string> => realpath(cwd).catch(() => cwd);
  const rulesOf = async (cwd: string): Promise<{ project: string; rules: string[] }> => {
    const project = await projectOf(cwd);
    let rules = projects.get(project);
    if (rules === undefined) {
      rules =
        file === undefined
          ? Promise.resolve([])
          : file.read(project).then((read) => {
              if (read.isErr()) warn(`permission rules not read: ${read.error}`);
              return read.isOk() ? [...read.value] : [];
            });
      projects.set(project, rules);
    }
    return { project, rules: await rules };
  };
  /** Applies `change` to the file's rules (read again under its lock) and keeps what the file now holds in memory too. */
  const save = async (project: string, rules: string[], change: (kept: readonly string[]) => readonly string[]): Promise<string | undefined> => {
    if (file === undefined) return undefined;
    const written = await file.update(project, change);
    if (written.isErr()) return written.error;
    rules.splice(0, rules.length, ...written.value);
    return undefined;
  };
  return {
    projectOf,
    remembered: async (cwd) => [...(await rulesOf(cwd)).rules],
    remember: async (cwd, rule) => {
      const { project, rules } = await rulesOf(cwd);
      if (rules.includes(rule)) return undefined;
      rules.push(rule);
      return save(project, rules, (kept) => (kept.includes(rule) ? kept : [...kept, rule]));
    },
    forget: async (cwd, which) => {
      const { project, rules } = await rulesOf(cwd);
      const removed = which === "all" ? [...rules] : rules.filter((_, i) => which.includes(i + 1));
      const kept = rules.filter((rule) => !removed.includes(rule));
      rules.splice(0, rules.length, ...kept);
      const problem =
        removed.length > 0 || which === "all"
          ? await save(project, rules, (inFile) => {
              if (which === "all") removed.push(...inFile.filter((rule) => !removed.includes(rule)));
              return which === "all" ? [] : inFile.filter((rule) => !removed.includes(rule));
            })
          : undefined;
      return { removed, ...(problem !== undefined ? { problem } : {}) };
    },
  };
};
