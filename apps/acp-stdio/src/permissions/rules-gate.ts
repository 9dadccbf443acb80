/**
 * The full surface's permission rules over the ACP gate: every gated call is screened first (the
 * core's `screenCommand` / `screenFile` over the user's config, the project's `ask`/`deny` and the
 * rules remembered for the project); a dialog offers allow once, "Always allow `<rule>` in this
 * project" (kind `allow_always`) when a rule may be offered, and reject. Choosing the rule remembers
 * it (rule-book.ts) and runs this call once: nothing is ever granted by tool name.
 */
import type * as acp from "@agentclientprotocol/sdk";
import {
  EDITS_RULE,
  READS_RULE,
  resolvePath,
  screenCommand,
  screenFile,
  screenTool,
  TOOL_RULE_PREFIX,
  type CommandParser,
  type PermissionGate,
  type PermissionRules,
  type ScreenRequest,
  type Screened,
} from "@mm/core";
import { realTarget, withRealTargets } from "./real-target.js";
import type { RuleBook } from "./rule-book.js";

/** The rules from the configuration: the user's, and what the project's file added (ask and deny only). */
export type ConfiguredRules = PermissionRules;

/** The option names of a rule. */
export const ruleOptionName = (rule: string): string => {
  if (rule === EDITS_RULE) return "Always allow edits in this project";
  if (rule === READS_RULE) return "Always allow reading files in this project";
  if (rule.startsWith(TOOL_RULE_PREFIX)) return `Always allow the tool \`${rule.slice(TOOL_RULE_PREFIX.length)}\` in this project`;
  return `Always allow \`${rule}\` in this project`;
};

const FILE_RULES: Readonly<Record<string, typeof EDITS_RULE | typeof READS_RULE>> = { write_file: EDITS_RULE, edit_file: EDITS_RULE, read_file: READS_RULE };

const commandOf = (input: unknown): string | undefined => {
  const command = (input as { command?: unknown } | null)?.command;
  return typeof command === "string" ? command : undefined;
};

const pathOf = (request: ScreenRequest): string | undefined => {
  if (request.call.locations[0] !== undefined) return request.call.locations[0];
  const path = (request.call.input as { path?: unknown } | null)?.path;
  return typeof path === "string" ? resolvePath(request.cwd, path, request.home) : undefined;
};

export type RulesGateDeps = {
  readonly configured: ConfiguredRules;
  readonly book: RuleBook;
  readonly parser: CommandParser;
  readonly log: (line: string) => void;
  readonly warn: (line: string) => void;
  /** Why the sandbox mode cannot confine (undefined: it can); a session in that mode is then screened as `ask`. */
  readonly sandboxUnavailable: Promise<string | undefined>;
  /** mm's own config and state directories: outside the project even where it holds them (a session in `$HOME`). */
  readonly guarded?: readonly string[];
};

/** What the rules said of a call, kept until its dialog (by call id). */
type Pending = { readonly screened: Screened; readonly cwd: string };

/** The full surface's gate: `ask` is the ACP gate asked with `options`. */
export const rulesGate = (
  deps: RulesGateDeps,
  ask: (request: Parameters<PermissionGate["ask"]>[0], options: acp.PermissionOption[]) => ReturnType<PermissionGate["ask"]>,
): PermissionGate => {
  const pending = new Map<string, Pending>();
  const rulesFor = async (cwd: string): Promise<PermissionRules> => {
    const remembered = await deps.book.remembered(cwd);
    return { allow: [...deps.configured.allow, ...remembered], ask: deps.configured.ask, deny: deps.configured.deny };
  };
  const screenOf = async (request: ScreenRequest): Promise<Screened | undefined> => {
    const rules = await rulesFor(request.cwd);
    // Inside the project means where a path really lands: the cwd's real path, targets through links.
    // The session's additional directories count as the project too, each at its real path.
    const roots = await Promise.all((request.roots ?? []).map((root) => realTarget(root, root)));
    const guarded = await Promise.all((deps.guarded ?? []).map((dir) => realTarget(dir, dir)));
    const place = { cwd: await deps.book.projectOf(request.cwd), home: request.home, roots, guarded };
    const mode = request.mode === "sandbox" && (await deps.sandboxUnavailable) !== undefined ? "ask" : request.mode;
    const fileRule = FILE_RULES[request.call.name];
    if (fileRule !== undefined) {
      const path = pathOf(request);
      return path === undefined ? undefined : screenFile(fileRule, await realTarget(request.cwd, path, request.home), rules, mode, place);
    }
    if (request.call.name !== "bash") return screenTool(request.call.name, rules, mode);
    const command = commandOf(request.call.input);
    if (command === undefined) return undefined;
    const shape = await withRealTargets(await deps.parser.parse(command), request.cwd, request.home);
    return screenCommand(shape, rules, mode, place);
  };
  return {
    screen: async (request) => {
      const screened = await screenOf(request).catch((error: unknown) => {
        deps.warn(`permission rules failed on ${request.call.id}: ${String(error)}`);
        return { verdict: "ask", why: "the rules failed" } satisfies Screened;
      });
      if (screened === undefined) return "default";
      if (screened.verdict === "ask" || screened.verdict === "default") {
        // Kept for the dialog that may follow; the oldest dropped past a bound (a call never asked).
        if (pending.size >= 256) pending.delete(pending.keys().next().value as string);
        pending.set(request.call.id, { screened, cwd: request.cwd });
      }
      const said =
        screened.verdict === "run"
          ? "runs unasked"
          : screened.verdict === "deny"
            ? "denied"
            : screened.verdict === "ask"
              ? "asked"
              : `left to mode ${request.mode}`;
      deps.log(`session ${request.sessionId}: ${request.call.id} ${said}: ${screened.why}`);
      return screened.verdict;
    },
    ask: async (request) => {
      const kept = pending.get(request.call.id);
      pending.delete(request.call.id);
      const offer = kept?.screened.offer;
      const options: acp.PermissionOption[] = [
        { optionId: "allow", name: "Allow once", kind: "allow_once" },
        ...(offer !== undefined ? [{ optionId: "allow_always", name: ruleOptionName(offer), kind: "allow_always" as const }] : []),
        { optionId: "reject", name: "Reject", kind: "reject_once" },
      ];
      const decision = await ask(request, options);
      if (decision !== "allow_always") return decision;
      if (offer === undefined || kept === undefined) return "reject";
      const problem = await deps.book.remember(kept.cwd, offer);
      deps.log(`session ${request.sessionId}: rule "${offer}" remembered for ${await deps.book.projectOf(kept.cwd)}`);
      if (problem !== undefined) deps.warn(`the rule "${offer}" holds in this process only: ${problem}`);
      return "allow";
    },
  };
};
