/** One tool call of a model step: loop check, input check, preview, permission, execution. */
import type { ToolCall, ToolResultMessage } from "../history/message.js";
import type { PermissionGate } from "../ports/permission-gate.js";
import { tools } from "../tools/registry.js";
import type { ToolContext } from "../tools/tool.js";
import { toolKind, toolTitle, type ToolCallView } from "../tools/tool-view.js";
import type { Emit } from "./events.js";
import type { LoopDetector } from "./loop-detector.js";

export type CallCategory = "command" | "file" | "skill";

export type CallOutcome = {
  /** The recorded result; absent when the turn was cancelled before the call ended. */
  readonly result: ToolResultMessage | undefined;
  /** What ran, for the turn's counts. */
  readonly ran: CallCategory | undefined;
  /** The loop detector asks to end the turn. */
  readonly stopTurn: boolean;
};

export type CallDeps = {
  readonly sessionId: string;
  readonly gate: PermissionGate;
  readonly grants: Set<string>;
  readonly loop: LoopDetector;
  readonly ctx: ToolContext;
  readonly emit: Emit;
};

export const REJECTED = "[command rejected by the user]";
const TOOL_NAMES = [...tools.keys()].join(", ");

const categoryOf = (name: string): CallCategory =>
  name === "bash" ? "command" : name === "read_skill" ? "skill" : "file";

export const executeCall = async (deps: CallDeps, call: ToolCall): Promise<CallOutcome> => {
  const { emit, ctx } = deps;
  const baseView: ToolCallView = {
    id: call.id,
    name: call.name,
    title: toolTitle(call.name, call.input),
    kind: toolKind(call.name),
    input: call.input,
    locations: [],
    diffs: [],
  };
  const refuse = (view: ToolCallView, output: string, stopTurn = false): CallOutcome => {
    emit({ type: "tool-done", call: view, status: "failed", output, diffs: [] });
    return {
      result: { role: "tool", callId: call.id, toolName: call.name, status: "failed", output },
      ran: undefined,
      stopTurn,
    };
  };

  const tool = tools.get(call.name);
  if (tool === undefined) {
    emit({ type: "tool-pending", call: baseView });
    return refuse(baseView, `[unknown tool "${call.name}": the tools are ${TOOL_NAMES}]`);
  }
  const verdict = deps.loop.check(call.name, call.input);
  if (verdict !== "run") {
    emit({ type: "tool-pending", call: baseView });
    return refuse(
      baseView,
      `[loop detected: ${call.name} was called with this same input too many times in a row; it was not run again. Change approach.]`,
      verdict === "stop",
    );
  }
  const parsed = tool.parse(call.input);
  if (parsed.isErr()) {
    emit({ type: "tool-pending", call: baseView });
    return refuse(baseView, `[invalid input for ${call.name}: ${parsed.error}]`);
  }
  const input = parsed.value;
  const view: ToolCallView = {
    ...baseView,
    locations: tool.locations(input, ctx),
    diffs: await tool.preview(input, ctx),
  };
  emit({ type: "tool-pending", call: view });

  if (tool.gated && !deps.grants.has(call.name)) {
    const decision = await deps.gate.ask({ sessionId: deps.sessionId, call: view, signal: ctx.signal });
    if (ctx.signal.aborted) {
      emit({ type: "tool-done", call: view, status: "failed", output: "[cancelled]", diffs: [] });
      return { result: undefined, ran: undefined, stopTurn: false };
    }
    if (decision === "reject") return refuse(view, REJECTED);
    if (decision === "allow_always") deps.grants.add(call.name);
  }

  emit({ type: "tool-running", call: view });
  const outcome = await tool.run(input, ctx);
  const locations = [...new Set([...view.locations, ...outcome.diffs.map((d) => d.path)])];
  const doneView = locations.length === view.locations.length ? view : { ...view, locations };
  emit({ type: "tool-done", call: doneView, status: outcome.status, output: outcome.output, diffs: outcome.diffs });
  return {
    result: {
      role: "tool",
      callId: call.id,
      toolName: call.name,
      status: outcome.status,
      output: outcome.output,
      ...(outcome.diffs.length > 0 ? { diffs: outcome.diffs } : {}),
    },
    ran: categoryOf(call.name),
    stopTurn: false,
  };
};
