/**
 * The turn engine: model step → tool calls (gated, in order) → next step, until the model stops,
 * the user cancels, the step limit or the loop detector ends it. History in, events and history out.
 */
import { compactHistory, compactionLine } from "../compaction/compact-history.js";
import { assistantMessage, userMessage, type History, type Message, type ToolCall } from "../history/message.js";
import { withAllToolResults } from "../history/tool-results.js";
import type { ChangeTracker } from "../ports/change-tracker.js";
import type { Clock } from "../ports/clock.js";
import type { FileSystem } from "../ports/file-system.js";
import type { Model } from "../ports/model.js";
import type { PermissionGate } from "../ports/permission-gate.js";
import type { Shell } from "../ports/shell.js";
import type { SkillCatalogue } from "../ports/skill-catalogue.js";
import type { CallIds } from "../session/call-ids.js";
import { toolSpecs } from "../tools/registry.js";
import { toolKind, toolTitle } from "../tools/tool-view.js";
import type { ToolLimits } from "../tools/tool.js";
import type { Emit } from "./events.js";
import { executeCall, type CallCategory, type CallOutcome } from "./execute-call.js";
import { createLoopDetector } from "./loop-detector.js";
import { runModelStep } from "./model-step.js";
import { estimateTokens } from "./token-estimate.js";

export type EngineDeps = {
  readonly model: Model;
  readonly fs: FileSystem;
  readonly shell: Shell;
  readonly skills: SkillCatalogue;
  readonly gate: PermissionGate;
  readonly callIds: CallIds;
  readonly clock: Clock;
  /** Reports what each bash call changed on disk; absent, bash results carry no diffs. */
  readonly changes?: ChangeTracker;
  /** Operator log (stderr); each distinct warning of a tool is written once. */
  readonly log?: (line: string) => void;
};

export type TurnSettings = {
  readonly maxSteps: number;
  readonly loopRepeats: number;
  readonly limits: ToolLimits;
  readonly contextWindow: number;
  /** Input tokens at which the history is compacted before the next step. */
  readonly compactThreshold: number;
  readonly keepLastTurns: number;
  readonly home?: string;
};

export type TurnRequest = {
  readonly sessionId: string;
  readonly cwd: string;
  readonly history: History;
  /** Allow-always grants of the session; the engine adds to it. */
  readonly grants: Set<string>;
  readonly lastInputTokens: number | undefined;
  readonly text: string;
  /** The session's own file access (the editor's buffers), when it has one; else `deps.fs`. */
  readonly fs?: FileSystem;
  readonly signal: AbortSignal;
  readonly emit: Emit;
};

export type StopReason = "end_turn" | "cancelled" | "max_turn_requests" | "failed";

export type TurnCounts = { readonly commands: number; readonly fileOps: number; readonly skills: number };

export type TurnOutcome = {
  readonly history: History;
  readonly stopReason: StopReason;
  /** One-line explanation when `stopReason` is `failed`. */
  readonly error?: string;
  readonly counts: TurnCounts;
  readonly lastInputTokens: number | undefined;
};

const countsOf = (ran: readonly CallCategory[]): TurnCounts => ({
  commands: ran.filter((c) => c === "command").length,
  fileOps: ran.filter((c) => c === "file").length,
  skills: ran.filter((c) => c === "skill").length,
});

const warned = new WeakMap<(line: string) => void, Set<string>>();

/** The log, writing each distinct line once for the life of the process. */
const onceEach = (log: (line: string) => void) => (line: string): void => {
  const seen = warned.get(log) ?? new Set<string>();
  warned.set(log, seen);
  if (seen.has(line)) return;
  seen.add(line);
  log(line);
};

/** A tool or port that broke its never-throw contract: the call fails, the turn and its history go on. */
const brokenCall = (call: ToolCall, thrown: unknown, emit: Emit): CallOutcome => {
  const output = `[${call.name} failed unexpectedly: ${String(thrown instanceof Error ? thrown.message : thrown).split("\n")[0]}]`;
  emit({ type: "tool-done", call: { id: call.id, name: call.name, title: toolTitle(call.name, call.input), kind: toolKind(call.name), input: call.input, locations: [], diffs: [] }, status: "failed", output, diffs: [] });
  return { result: { role: "tool", callId: call.id, toolName: call.name, status: "failed", output }, ran: undefined, stopTurn: false };
};

export const runTurn = async (deps: EngineDeps, settings: TurnSettings, request: TurnRequest): Promise<TurnOutcome> => {
  const { signal, emit } = request;
  const question = userMessage(request.text);
  let history: Message[] = [...request.history, question];
  let lastInputTokens = request.lastInputTokens;
  const ran: CallCategory[] = [];
  const loop = createLoopDetector(settings.loopRepeats);
  const ctx = {
    cwd: request.cwd,
    ...(settings.home !== undefined ? { home: settings.home } : {}),
    fs: request.fs ?? deps.fs,
    shell: deps.shell,
    skills: deps.skills,
    limits: settings.limits,
    signal,
    ...(deps.changes !== undefined ? { changes: deps.changes } : {}),
    ...(deps.log !== undefined ? { warn: onceEach(deps.log) } : {}),
  };

  const end = (stopReason: StopReason, error?: string): TurnOutcome => {
    const unanswered = history[history.length - 1] === question;
    const kept = unanswered ? history.slice(0, -1) : history;
    return {
      history: kept as unknown as History,
      stopReason,
      ...(error !== undefined ? { error } : {}),
      counts: countsOf(ran),
      lastInputTokens,
    };
  };

  let compactionFailed = false;
  const maybeCompact = async (): Promise<void> => {
    if (compactionFailed || lastInputTokens === undefined || lastInputTokens < settings.compactThreshold) return;
    const keep = Math.max(1, settings.keepLastTurns);
    const result = await compactHistory(deps, history as unknown as History, keep, signal);
    if (result.kind === "nothing" || signal.aborted) return;
    const line = compactionLine(result);
    emit({ type: "compaction", outcome: result.kind, line, summary: result.kind === "compacted" ? result.summary : undefined });
    if (result.kind !== "compacted") {
      compactionFailed = true;
      return;
    }
    history = [...result.history];
    lastInputTokens = undefined;
  };

  for (let step = 0; step < settings.maxSteps; step++) {
    if (signal.aborted) return end("cancelled");
    await maybeCompact();
    if (signal.aborted) return end("cancelled");
    const [system, ...conversation] = history as unknown as History;
    const result = await runModelStep(deps.model, system.text, withAllToolResults(conversation), toolSpecs, signal, emit);
    const calls: ToolCall[] = result.calls.map((c) => ({ id: deps.callIds.next(), name: c.name, input: c.input }));
    if (result.text !== "" || calls.length > 0) history.push(assistantMessage(result.text, calls));
    if (result.error !== undefined) {
      return result.error.kind === "aborted" || signal.aborted ? end("cancelled") : end("failed", result.error.message);
    }
    const inputTokens = result.usage?.inputTokens;
    if (inputTokens !== undefined) lastInputTokens = inputTokens;
    const used = inputTokens !== undefined ? inputTokens + (result.usage?.outputTokens ?? 0) : estimateTokens(history);
    emit({ type: "usage", used, size: settings.contextWindow });
    if (calls.length === 0) return end("end_turn");
    for (const call of calls) {
      const outcome = await executeCall(
        { sessionId: request.sessionId, gate: deps.gate, grants: request.grants, loop, ctx, emit },
        call,
      ).catch((thrown: unknown) => brokenCall(call, thrown, emit));
      if (outcome.result !== undefined) history.push(outcome.result);
      if (outcome.ran !== undefined) ran.push(outcome.ran);
      if (signal.aborted) return end("cancelled");
      if (outcome.stopTurn) {
        emit({ type: "notice", text: "\n[turn stopped: the same tool call kept repeating]\n" });
        return end("max_turn_requests");
      }
    }
  }
  emit({ type: "notice", text: `\n[turn stopped: reached the limit of ${settings.maxSteps} model steps]\n` });
  return end("max_turn_requests");
};
