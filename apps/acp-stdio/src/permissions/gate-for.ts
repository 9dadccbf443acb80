/**
 * The permission gate of a configuration: the spec surface's (three options, "Always allow" for the
 * tool for the session, as docs/acp-surface.md says), or on the full surface the rules gate, its
 * remembered rules in the user's state dir (`permissions.json`; in memory without one).
 */
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { PermissionGate, PermissionRules, ToolCallView } from "@mm/core";
import { bashCommandParser, rememberedRulesFile } from "@mm/node";
import { acpPermissionGate } from "../editor/acp-permission-gate.js";
import type { Peer } from "../state/app-state.js";
import { userConfigPath } from "../config/config-file.js";
import type { MmConfig } from "../config/index.js";
import { withSandboxTitle } from "../translate/sandbox-title.js";
import { ruleBook, type RuleBook } from "./rule-book.js";
import { rulesGate } from "./rules-gate.js";

/** The gate, and on the full surface the book of remembered rules (for `/permissions`). */
export type PermissionsOf = {
  readonly gate: PermissionGate;
  /** For `/permissions`: the remembered rules, the configuration's, and where the remembered ones are kept. */
  readonly rules?: { readonly book: RuleBook; readonly configured: PermissionRules; readonly where: string };
};

export const permissionsFor = (
  config: MmConfig,
  peer: Peer,
  stateDir: string | undefined,
  log: (line: string) => void,
  warn: (line: string) => void,
  sandboxUnavailable?: Promise<string | undefined>,
): PermissionsOf => {
  const shown = config.tools.sandbox === "workspace" ? withSandboxTitle : (call: ToolCallView) => call;
  if (config.acp.surface !== "full") return { gate: acpPermissionGate(peer, shown) };
  const file = stateDir !== undefined ? join(stateDir, "permissions.json") : undefined;
  // Made now (0700), before any command: a sandbox masks mm's state only where it exists, and a
  // confined command in a session whose cwd holds it (`$HOME`) must not create the rules file first.
  if (stateDir !== undefined) {
    try {
      mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    } catch (error) {
      warn(`mm-acp: cannot make ${stateDir}: ${String(error instanceof Error ? error.message : error)}`);
    }
  }
  const book = ruleBook(file !== undefined ? rememberedRulesFile(file) : undefined, warn);
  // mm's own config and state: a rule for "edits in this project" never covers them, even in $HOME.
  const guarded = [dirname(userConfigPath(process.env, homedir())), ...(stateDir !== undefined ? [stateDir] : [])];
  const gate = rulesGate(
    {
      configured: config.permissions,
      book,
      parser: bashCommandParser(),
      log,
      warn,
      sandboxUnavailable: sandboxUnavailable ?? Promise.resolve("no sandbox"),
      guarded,
    },
    (request, options) => acpPermissionGate(peer, shown, () => options).ask(request),
  );
  return { gate, rules: { book, configured: config.permissions, where: file ?? "in this process only" } };
};
