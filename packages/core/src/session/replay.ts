/** What a `session/load` replays: one item per stored element, in order, the system prompt left out. */
import type { FileDiff, History, ImageData, ToolCall, ToolResultMessage } from "../history/message.js";
import type { PlanEntry, PreparedCall, ToolOutcome, ToolPlace } from "../tools/tool.js";
import type { ToolKind } from "../vocabulary/tool-call-view.js";

const TOOL_KINDS: ReadonlySet<string> = new Set<ToolKind>(["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "other"]);
import type { Toolbox } from "../tools/toolbox.js";
import { bareView } from "../tools/bare-view.js";
import type { ToolCallView } from "../vocabulary/tool-call-view.js";

/** One element of a replay. */
export type ReplayItem =
  | { readonly type: "user"; readonly text: string; readonly images?: readonly ImageData[] }
  | { readonly type: "thought"; readonly text: string }
  | { readonly type: "plan"; readonly entries: readonly PlanEntry[] }
  | { readonly type: "summary"; readonly text: string }
  | { readonly type: "agent"; readonly text: string }
  | {
      readonly type: "tool";
      readonly call: ToolCallView;
      /** Absent when no response was recorded: the call never ended. */
      readonly result: ToolOutcome | undefined;
    };

/** The call's input checked by its tool, once: what its view and its plan come from (none when it does not check). */
const preparedOf = (call: ToolCall, toolbox: Toolbox): PreparedCall | undefined => {
  const tool = toolbox.byName.get(call.name);
  if (tool === undefined) return undefined;
  const prepared = tool.prepare(call.input);
  return prepared.isOk() ? prepared.value : undefined;
};

/** The paths shown, each once, then the diffs' paths not among them. */
const locationsOf = (shown: readonly string[], diffs: readonly FileDiff[]): string[] => {
  if (diffs.length === 0 && shown.length <= 1) return [...shown];
  return [...new Set([...shown, ...diffs.map((d) => d.path)])];
};

/** The call as the live tool showed it: title and files from its input (the bare view when it does not check). */
const viewOf = (
  call: ToolCall,
  prepared: PreparedCall | undefined,
  result: ToolResultMessage | undefined,
  toolbox: Toolbox,
  place: ToolPlace,
): ToolCallView => {
  const base = bareView(call, toolbox);
  const diffs = result?.diffs ?? [];
  // As it was shown live, when the result kept it (a tool that may be gone now, an MCP server's).
  const recorded = result?.shown;
  if (recorded !== undefined && prepared === undefined) {
    const kind = TOOL_KINDS.has(recorded.kind) ? (recorded.kind as ToolKind) : base.kind;
    return { ...base, title: recorded.title, kind, locations: locationsOf(recorded.locations ?? [], diffs), diffs };
  }
  const title = prepared === undefined ? base.title : prepared.title;
  return { ...base, title, locations: locationsOf(prepared === undefined ? [] : prepared.locations(place), diffs), diffs };
};

/** The items of one tool call: the call with its result, then its plan when it completed with one. */
const pushCall = (out: ReplayItem[], call: ToolCall, result: ToolResultMessage | undefined, toolbox: Toolbox, place: ToolPlace): void => {
  const prepared = preparedOf(call, toolbox);
  out.push({
    type: "tool",
    call: viewOf(call, prepared, result, toolbox, place),
    result:
      result === undefined
        ? undefined
        : {
            status: result.status,
            output: result.output,
            diffs: result.diffs ?? [],
            ...(result.images !== undefined ? { images: result.images } : {}),
          },
  });
  const plan = result?.status === "completed" ? prepared?.plan : undefined;
  if (plan !== undefined) out.push({ type: "plan", entries: plan });
};

/**
 * The replay of a history: users, summaries, model text and every tool call with its recorded result.
 * One pass that appends to one array: a loaded session of thousands of messages is replayed at once.
 */
export const replayOf = (history: History, toolbox: Toolbox, place: ToolPlace): readonly ReplayItem[] => {
  const results = new Map<string, ToolResultMessage>();
  for (const m of history) if (m.role === "tool") results.set(m.callId, m);
  const out: ReplayItem[] = [];
  for (let i = 1; i < history.length; i++) {
    const message = history[i]!;
    if (message.role === "user") {
      if (message.summary) out.push({ type: "summary", text: message.text });
      else out.push(message.images !== undefined ? { type: "user", text: message.text, images: message.images } : { type: "user", text: message.text });
    } else if (message.role === "assistant") {
      for (const r of message.reasoning ?? []) if (r.text !== "") out.push({ type: "thought", text: r.text });
      if (message.text !== "") out.push({ type: "agent", text: message.text });
      for (const call of message.toolCalls) pushCall(out, call, results.get(call.id), toolbox, place);
    }
  }
  return out;
};
