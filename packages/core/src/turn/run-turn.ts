/**
 * The turn engine: model step → tool calls (gated, in order) → next step, until the model stops, the
 * user cancels, or the step limit or the loop detector ends it. A function over values: the session's
 * history, grants and token count in; events while it runs; every change in its outcome.
 */
import { compactHistory, compactionLine } from "../compaction/compact-history.js";
import { assistantMessage, userMessage, type History, type ImageData, type Message, type ToolCall, type ToolResultMessage } from "../history/message.js";
import { withoutImages } from "../history/images-for-model.js";
import { withAllToolResults } from "../history/tool-results.js";
import type { ChangeTracker } from "../ports/change-tracker.js";
import type { Clock } from "../ports/clock.js";
import type { FileSystem } from "../ports/file-system.js";
import type { Model } from "../ports/model.js";
import type { PermissionGate } from "../ports/permission-gate.js";
import type { Shell } from "../ports/shell.js";
import type { SkillCatalogue } from "../ports/skill-catalogue.js";
import type { CallIds } from "../session/call-ids.js";
import type { PermissionMode } from "../vocabulary/permission-mode.js";
import type { ToolCategory, ToolContext, ToolLimits } from "../tools/tool.js";
import type { Toolbox } from "../tools/toolbox.js";
import type { Emit } from "./events.js";
import { stepCost, type Pricing } from "./step-cost.js";
import { executeCall, refusedCall, type CallOutcome } from "./execute-call.js";
import { createLoopDetector } from "./loop-detector.js";
import { runModelStep } from "../model/model-step.js";
import { DEFAULT_IMAGE_BUDGET, imageBytesOf, withBoundedImages, type ImageBudget } from "../history/image-budget.js";
import { redactDeep, type Redact } from "./redact.js";
import { bareView } from "../tools/bare-view.js";
import { estimateTokens } from "../history/token-estimate.js";

/** The ports a turn uses. */
export type EngineDeps = {
  readonly model: Model;
  readonly fs: FileSystem;
  readonly shell: Shell;
  readonly skills: SkillCatalogue;
  readonly gate: PermissionGate;
  readonly callIds: CallIds;
  readonly clock: Clock;
  /** Reports what each bash call changed on disk; absent, bash results carry no diffs. */
  readonly changes?: ChangeTracker | undefined;
  /** Operator log for tools; each distinct line once. */
  readonly warn: (line: string) => void;
  /** The shell and file-system boundary of the `sandbox` permission mode; absent, that mode confines nothing (and its rules ask). */
  readonly confined?: Confined | undefined;
};

/** A confined shell, and a session's file system confined the same way (given its cwd). */
export type Confined = { readonly shell: Shell; readonly fs: (inner: FileSystem, cwd: string, roots?: readonly string[]) => FileSystem };

/** How turns run: limits, the context window and when to compact. */
export type TurnSettings = {
  /** Model steps per turn before it ends `max_turn_requests`. */
  readonly maxSteps: number;
  /** Identical tool calls in a row before they are refused. */
  readonly loopRepeats: number;
  readonly limits: ToolLimits;
  /** Tokens the model can take, shown to the user beside the tokens in use. */
  readonly contextWindow: number;
  /** Input tokens at which the history is compacted before the next step. */
  readonly compactThreshold: number;
  /** Turns a compaction keeps verbatim. */
  readonly keepLastTurns: number;
  /** The home directory `~` paths resolve under, when there is one. */
  readonly home?: string;
  /** The model reads images: prompts may carry them and tools may return them. */
  readonly vision?: boolean;
  /**
   * Replaces the secrets the host holds (the model's key…) in every tool result, diff, title and live
   * output before anyone sees it: the model, the editor, the session (turn/redact.ts).
   */
  readonly redact?: Redact;
  /** The bytes of images a tool result and a session keep (history/image-budget.ts); DEFAULT_IMAGE_BUDGET when absent. */
  readonly images?: ImageBudget;
  /** The user's prices, for steps whose server reports no cost (turn/step-cost.ts). */
  readonly pricing?: Pricing | undefined;
};

/** One turn to run: the session's state, the user's text, where events go. */
export type TurnRequest = {
  readonly sessionId: string;
  readonly cwd: string;
  /** The session's additional directories (absolute): writable like the cwd, watched for changes. */
  readonly roots?: readonly string[];
  readonly history: History;
  /** Tools the user allowed for the rest of the session. */
  readonly grants: ReadonlySet<string>;
  readonly lastInputTokens: number | undefined;
  readonly text: string;
  /** Images of the prompt, for a model that reads them. */
  readonly images?: readonly ImageData[];
  readonly toolbox: Toolbox;
  /** How much the user is asked (see PermissionMode). */
  readonly mode: PermissionMode;
  /** The model to ask, when not the adapter's default. */
  readonly model?: string | undefined;
  /** The reasoning effort to ask for, when the session chose one. */
  readonly effort?: string | undefined;
  /** What the session cost so far in US dollars, when known. */
  readonly cost?: number | undefined;
  /** The session's own file access (the editor's buffers), when it has one; else `deps.fs`. */
  readonly fs?: FileSystem;
  readonly signal: AbortSignal;
  readonly emit: Emit;
  /**
   * Called with the history so far after each model step and each tool call, once the question has
   * an answer (to keep it on disk as the turn goes); the turn goes on once it has settled.
   */
  readonly onProgress?: (history: History) => void | Promise<void>;
  /** The server refused images earlier in the session: send none (placeholders instead). */
  readonly imagesRefused?: boolean;
};

/**
 * Why a turn ended. `max_tokens`: the answer was cut off at the model's output limit; `refusal`: the
 * server's content filter stopped it (the app shows both as `end_turn` on the spec surface).
 */
export type StopReason = "end_turn" | "cancelled" | "max_turn_requests" | "max_tokens" | "refusal" | "failed";

/** The chunk that ends an answer the model did not finish, and what the model is told of its calls. */
const UNFINISHED = {
  length: {
    notice: "\n[answer cut off: the model reached its output limit]\n",
    call: "[not run: this call was cut off at the model's output limit; ask for less at once, e.g. write the file in parts]",
    stop: "max_tokens",
  },
  "content-filter": {
    notice: "\n[answer stopped by the model server's content filter]\n",
    call: "[not run: the model server's content filter stopped the answer]",
    stop: "refusal",
  },
} as const;

/** The tool calls that ran in a turn, by what they count as. */
export type TurnCounts = { readonly commands: number; readonly fileOps: number; readonly skills: number };

/** Everything a turn changed, and how it ended. */
export type TurnOutcome = {
  readonly history: History;
  readonly grants: ReadonlySet<string>;
  readonly lastInputTokens: number | undefined;
  readonly stopReason: StopReason;
  /** One-line explanation when `stopReason` is `failed`. */
  readonly error?: string;
  readonly counts: TurnCounts;
  /** The server refused images (now or before): the session sends none from now on. */
  readonly imagesRefused: boolean;
  /** What the session cost so far, this turn's steps included, when known (US dollars). */
  readonly cost: number | undefined;
};

const countsOf = (ran: readonly ToolCategory[]): TurnCounts => ({
  commands: ran.filter((c) => c === "command").length,
  fileOps: ran.filter((c) => c === "file").length,
  skills: ran.filter((c) => c === "skill").length,
});

/** Runs one turn; never throws for expected failures (they end it `failed` with a line). */
export const runTurn = async (deps: EngineDeps, settings: TurnSettings, request: TurnRequest): Promise<TurnOutcome> => {
  const { signal, emit, toolbox } = request;
  // The prompt too: a file attached with `@path` may hold a secret the host holds (the editor's settings).
  const question = userMessage(settings.redact === undefined ? request.text : settings.redact(request.text), request.images);
  let history: History = [...request.history, question];
  const grants = new Set(request.grants);
  let lastInputTokens = request.lastInputTokens;
  let cost = request.cost;
  const ran: ToolCategory[] = [];
  const loop = createLoopDetector(settings.loopRepeats);
  let imagesRefused = request.imagesRefused === true;
  const ctx: ToolContext = {
    cwd: request.cwd,
    ...(request.roots !== undefined && request.roots.length > 0 ? { roots: request.roots } : {}),
    ...(settings.home !== undefined ? { home: settings.home } : {}),
    // The sandbox mode: the session's commands and file tools confined, whatever the process's shell.
    fs:
      request.mode === "sandbox" && deps.confined !== undefined ? deps.confined.fs(request.fs ?? deps.fs, request.cwd, request.roots) : (request.fs ?? deps.fs),
    shell: request.mode === "sandbox" && deps.confined !== undefined ? deps.confined.shell : deps.shell,
    skills: deps.skills,
    limits: settings.limits,
    signal,
    sessionId: request.sessionId,
    ...(settings.vision === true ? { vision: true } : {}),
    ...(deps.changes !== undefined ? { changes: deps.changes } : {}),
    warn: deps.warn,
  };
  const append = (message: Message): void => {
    history = [...history, message];
  };
  const answered = (): boolean => history[history.length - 1] !== question;
  const progress = async (): Promise<void> => {
    if (answered()) await request.onProgress?.(history);
  };

  const end = (stopReason: StopReason, error?: string): TurnOutcome => {
    return {
      history: answered() ? history : [history[0], ...history.slice(1, -1)],
      grants,
      lastInputTokens,
      stopReason,
      ...(error !== undefined ? { error } : {}),
      counts: countsOf(ran),
      imagesRefused,
      cost,
    };
  };

  let compactionFailed = false;
  const maybeCompact = async (): Promise<void> => {
    if (compactionFailed || lastInputTokens === undefined || lastInputTokens < settings.compactThreshold) return;
    const result = await compactHistory(deps, history, Math.max(1, settings.keepLastTurns), signal, request.model, (usage) => {
      const spent = stepCost(usage, settings.pricing, request.model);
      if (spent !== undefined) cost = (cost ?? 0) + spent;
    });
    if (result.kind === "nothing" || signal.aborted) return;
    emit({ type: "compaction", outcome: result.kind, line: compactionLine(result), summary: result.kind === "compacted" ? result.summary : undefined });
    if (result.kind !== "compacted") {
      compactionFailed = true;
      return;
    }
    history = result.history;
    lastInputTokens = undefined;
  };

  // What a call hands on, shown (its events) and kept (its result), alike: its images within the
  // budget given what the session holds (history/image-budget.ts), then the host's secrets replaced
  // (turn/redact.ts). Its `tool-done` event comes just before its result is kept: the two agree.
  const redact = settings.redact;
  const budget = settings.images ?? DEFAULT_IMAGE_BUDGET;
  const handOn = <T>(value: T): T => (redact === undefined ? value : redactDeep(redact, value));
  const callEmit: Emit = (event) => emit(handOn(event.type === "tool-done" ? withBoundedImages(event, budget, imageBytesOf(history)) : event));
  const kept = (result: ToolResultMessage): ToolResultMessage => handOn(withBoundedImages(result, budget, imageBytesOf(history)));
  // The permission dialog shows the call too (its proposed diff holds a file's content): redacted alike.
  // The rules (`screen`) judge the call as the model wrote it; nothing of theirs is shown.
  const gate: PermissionGate = redact === undefined ? deps.gate : { ...deps.gate, ask: (asked) => deps.gate.ask({ ...asked, call: handOn(asked.call) }) };
  const onText = (text: string): void => emit({ type: "text", text });
  const onThought = (text: string): void => emit({ type: "thought", text });
  for (let step = 0; step < settings.maxSteps; step++) {
    if (signal.aborted) return end("cancelled");
    await maybeCompact();
    if (signal.aborted) return end("cancelled");
    const [system, ...conversation] = history;
    const messages = withAllToolResults(conversation);
    const placeholders = withoutImages(messages);
    const sendsImages = settings.vision === true && !imagesRefused && placeholders !== messages;
    const result = await runModelStep(
      deps.model,
      {
        model: request.model,
        ...(request.effort !== undefined ? { effort: request.effort } : {}),
        system: system.text,
        messages: sendsImages ? messages : placeholders,
        tools: toolbox.specs,
        signal,
      },
      onText,
      onThought,
    );
    const calls: ToolCall[] = result.calls.map((c) => ({ id: deps.callIds.next(), name: c.name, input: c.input }));
    const shown = result.text !== "" || calls.length > 0 || result.reasoning.length > 0;
    if (sendsImages && result.error?.kind === "images-refused" && !shown) {
      // A vision setting the server does not live up to: said once, and the step asked again with
      // placeholders, so no image the session holds can fail this turn or any later one.
      imagesRefused = true;
      deps.warn(`session ${request.sessionId}: ${result.error.message}; images go as placeholders from now on`);
      emit({ type: "notice", text: `\n[${result.error.message}; images go as text placeholders for the rest of this session]\n`, severity: "warning" });
      step--;
      continue;
    }
    if (shown) append(assistantMessage(result.text, calls, result.reasoning));
    await progress();
    if (result.error !== undefined) {
      return result.error.kind === "aborted" || signal.aborted ? end("cancelled") : end("failed", result.error.message);
    }
    const inputTokens = result.usage?.inputTokens;
    if (inputTokens !== undefined) lastInputTokens = inputTokens;
    const used = inputTokens !== undefined ? inputTokens + (result.usage?.outputTokens ?? 0) : estimateTokens(history);
    const spent = stepCost(result.usage, settings.pricing, request.model);
    if (spent !== undefined) cost = (cost ?? 0) + spent;
    emit({ type: "usage", used, size: settings.contextWindow, ...(cost !== undefined ? { cost } : {}) });
    if (result.finishReason === "length" || result.finishReason === "content-filter") {
      // An unfinished answer: none of its calls runs (the last one may be cut short), the model is told so.
      const unfinished = UNFINISHED[result.finishReason];
      for (const call of calls) append({ role: "tool", callId: call.id, toolName: call.name, status: "failed", output: unfinished.call });
      if (calls.length > 0) await progress();
      emit({ type: "notice", text: unfinished.notice, severity: "warning" });
      return end(unfinished.stop);
    }
    if (calls.length === 0) return end("end_turn");
    for (const call of calls) {
      const outcome = await executeCall({ sessionId: request.sessionId, gate, grants, mode: request.mode, loop, toolbox, ctx, emit: callEmit }, call).catch(
        (thrown: unknown): CallOutcome =>
          refusedCall(
            call,
            bareView(call, toolbox),
            `[${call.name} failed unexpectedly: ${String(thrown instanceof Error ? thrown.message : thrown).split("\n")[0]}]`,
            callEmit,
          ),
      );
      if (outcome.result !== undefined) append(kept(outcome.result));
      if (outcome.granted !== undefined) grants.add(outcome.granted);
      if (outcome.ran !== undefined) ran.push(outcome.ran);
      await progress();
      if (signal.aborted) return end("cancelled");
      if (outcome.stopTurn) {
        emit({ type: "notice", text: "\n[turn stopped: the same tool call kept repeating]\n", severity: "warning" });
        return end("max_turn_requests");
      }
    }
  }
  emit({ type: "notice", text: `\n[turn stopped: reached the limit of ${settings.maxSteps} model steps]\n`, severity: "warning" });
  return end("max_turn_requests");
};
