/** One tool call of a model step: loop check, input check, preview, permission, execution. */
import type { ToolCall, ToolResultMessage } from "../history/message.js";
import type { PermissionGate } from "../ports/permission-gate.js";
import { modeAsks } from "../permissions/mode-asks.js";
import type { PermissionMode } from "../vocabulary/permission-mode.js";
import type { ToolCategory, ToolContext, ToolOutcome } from "../tools/tool.js";
import type { Toolbox } from "../tools/toolbox.js";
import type { Emit } from "./events.js";
import type { LoopDetector } from "./loop-detector.js";
import { bareView } from "../tools/bare-view.js";
import type { ToolCallView } from "../vocabulary/tool-call-view.js";

/** What became of one call. */
export type CallOutcome = {
  /** The recorded result; absent when the turn was cancelled before the call ended. */
  readonly result: ToolResultMessage | undefined;
  /** What ran, for the turn's counts. */
  readonly ran: ToolCategory | undefined;
  /** The user chose "always allow" for this tool. */
  readonly granted: string | undefined;
  /** The loop detector asks to end the turn. */
  readonly stopTurn: boolean;
};

/** What one call needs: the gate, the session's grants, the loop detector, the tools. */
export type CallDeps = {
  readonly sessionId: string;
  readonly gate: PermissionGate;
  readonly grants: ReadonlySet<string>;
  readonly mode: PermissionMode;
  readonly loop: LoopDetector;
  readonly toolbox: Toolbox;
  readonly ctx: ToolContext;
  readonly emit: Emit;
};

/** What the model is told of a call the user's rules deny. */
export const DENIED = "[command denied by the user's rules]";

/** The view a result keeps for its replay (see `ToolResultMessage.shown`). */
const shownOf = (view: ToolCallView) => ({ title: view.title, kind: view.kind, ...(view.locations.length > 0 ? { locations: view.locations } : {}) });

const resultOf = (call: ToolCall, outcome: ToolOutcome, recorded?: ToolCallView): ToolResultMessage => ({
  role: "tool",
  callId: call.id,
  toolName: call.name,
  status: outcome.status,
  output: outcome.output,
  ...(outcome.diffs.length > 0 ? { diffs: outcome.diffs } : {}),
  ...(outcome.images !== undefined && outcome.images.length > 0 ? { images: outcome.images } : {}),
  ...(recorded !== undefined ? { shown: shownOf(recorded) } : {}),
});

/** A call that did not run: shown, ended `failed`, and the model told why. */
export const refusedCall = (call: ToolCall, view: ToolCallView, output: string, emit: Emit, stopTurn = false, record = false): CallOutcome => {
  emit({ type: "tool-done", call: view, status: "failed", output, diffs: [] });
  return { result: resultOf(call, { status: "failed", output, diffs: [] }, record ? view : undefined), ran: undefined, granted: undefined, stopTurn };
};

/** Runs one call through its checks, the permission dialog and the tool. Never throws on a refusal. */
export const executeCall = async (deps: CallDeps, call: ToolCall): Promise<CallOutcome> => {
  const { emit, ctx, toolbox } = deps;
  const baseView = bareView(call, toolbox);
  const refuse = (view: ToolCallView, output: string, stopTurn = false): CallOutcome => {
    if (view === baseView) emit({ type: "tool-pending", call: view });
    return refusedCall(call, view, output, emit, stopTurn, toolbox.byName.get(call.name)?.recordsView === true);
  };

  const tool = toolbox.byName.get(call.name);
  if (tool === undefined) {
    return refuse(baseView, `[unknown tool "${call.name}": the tools are ${[...toolbox.byName.keys()].join(", ")}]`);
  }
  const verdict = deps.loop.check(call.name, call.input);
  if (verdict !== "run") {
    return refuse(
      baseView,
      `[loop detected: ${call.name} was called with this same input too many times in a row; it was not run again. Change approach.]`,
      verdict === "stop",
    );
  }
  const prepared = tool.prepare(call.input);
  if (prepared.isErr()) return refuse(baseView, `[invalid input for ${call.name}: ${prepared.error}]`);
  const prepare = prepared.value;
  const view: ToolCallView = { ...baseView, title: prepare.title, locations: prepare.locations(ctx), diffs: await prepare.preview(ctx) };
  emit({ type: "tool-pending", call: view });

  let granted: string | undefined;
  const screening =
    tool.gated && deps.gate.screen !== undefined
      ? await deps.gate.screen({ sessionId: deps.sessionId, call: view, cwd: ctx.cwd, roots: ctx.roots, home: ctx.home, mode: deps.mode })
      : "default";
  if (screening === "deny") return refuse(view, DENIED);
  const asks = screening === "ask" || (screening === "default" && modeAsks(deps.mode, tool) && !deps.grants.has(call.name));
  if (asks) {
    const decision = await deps.gate.ask({ sessionId: deps.sessionId, call: view, signal: ctx.signal });
    if (ctx.signal.aborted) {
      emit({ type: "tool-done", call: view, status: "failed", output: "[cancelled]", diffs: [] });
      return { result: undefined, ran: undefined, granted: undefined, stopTurn: false };
    }
    if (decision === "reject") return refuse(view, tool.rejected);
    if (decision === "allow_always") granted = call.name;
  }

  emit({ type: "tool-running", call: view });
  let running = true;
  const progress = (text: string): void => {
    if (running && text !== "") emit({ type: "tool-output", call: view, text });
  };
  // `before` and `hidden` are for /undo's recorder (undo/recording-toolbox.ts), never shown nor recorded.
  const {
    before: _before,
    hidden: _hidden,
    ...outcome
  } = await prepare.run({ ...ctx, callId: call.id, progress }).finally(() => {
    running = false;
  });
  const locations = [...new Set([...view.locations, ...outcome.diffs.map((d) => d.path)])];
  const doneView = locations.length === view.locations.length ? view : { ...view, locations };
  emit({ type: "tool-done", call: doneView, ...outcome });
  if (prepare.plan !== undefined && outcome.status === "completed") emit({ type: "plan", entries: prepare.plan });
  return { result: resultOf(call, outcome, tool.recordsView ? doneView : undefined), ran: tool.counts, granted, stopTurn: false };
};
