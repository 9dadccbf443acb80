/** What a `session/load` replays: one item per stored element, in order, the system prompt left out. */
import * as O from "fp-ts/lib/Option.js";
import * as RA from "fp-ts/lib/ReadonlyArray.js";
import { pipe } from "fp-ts/lib/function.js";
import { conversationOf, type History, type ImageData, type Message, type ToolCall, type ToolResultMessage } from "../history/message.js";
import type { PlanEntry, PreparedCall, ToolKind, ToolOutcome, ToolPlace } from "../tools/tool.js";

const TOOL_KINDS: ReadonlySet<string> = new Set<ToolKind>(["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "other"]);
import type { Toolbox } from "../tools/toolbox.js";
import { bareView, type ToolCallView } from "../turn/tool-call-view.js";

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
const preparedOf = (call: ToolCall, toolbox: Toolbox): O.Option<PreparedCall> =>
  pipe(
    O.fromNullable(toolbox.byName.get(call.name)),
    O.chain((tool) => tool.prepare(call.input).match(O.some, () => O.none)),
  );

/** The call as the live tool showed it: title and files from its input (the bare view when it does not check). */
const viewOf = (call: ToolCall, prepared: O.Option<PreparedCall>, result: ToolResultMessage | undefined, toolbox: Toolbox, place: ToolPlace): ToolCallView => {
  const base = bareView(call, toolbox);
  const diffs = result?.diffs ?? [];
  // As it was shown live, when the result kept it (a tool that may be gone now, an MCP server's).
  const recorded = result?.shown;
  if (recorded !== undefined && O.isNone(prepared)) {
    const kind = TOOL_KINDS.has(recorded.kind) ? (recorded.kind as ToolKind) : base.kind;
    return { ...base, title: recorded.title, kind, locations: [...new Set([...(recorded.locations ?? []), ...diffs.map((d) => d.path)])], diffs };
  }
  const shown = pipe(
    prepared,
    O.match(
      () => ({ title: base.title, locations: [] as readonly string[] }),
      (p) => ({ title: p.title, locations: p.locations(place) }),
    ),
  );
  return { ...base, title: shown.title, locations: [...new Set([...shown.locations, ...diffs.map((d) => d.path)])], diffs };
};

const itemsOf =
  (results: ReadonlyMap<string, ToolResultMessage>, toolbox: Toolbox, place: ToolPlace) =>
  (message: Message): readonly ReplayItem[] => {
    switch (message.role) {
      case "user":
        if (message.summary) return [{ type: "summary", text: message.text }];
        return [message.images !== undefined ? { type: "user", text: message.text, images: message.images } : { type: "user", text: message.text }];
      case "assistant":
        return [
          ...(message.reasoning ?? []).filter((r) => r.text !== "").map((r): ReplayItem => ({ type: "thought", text: r.text })),
          ...(message.text !== "" ? [{ type: "agent", text: message.text } as const] : []),
          ...message.toolCalls.flatMap((call): ReplayItem[] => {
            const result = results.get(call.id);
            const prepared = preparedOf(call, toolbox);
            const tool: ReplayItem = {
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
            };
            const plan =
              result?.status === "completed"
                ? pipe(
                    prepared,
                    O.chain((p) => O.fromNullable(p.plan)),
                    O.toUndefined,
                  )
                : undefined;
            return plan === undefined ? [tool] : [tool, { type: "plan", entries: plan }];
          }),
        ];
      default:
        return [];
    }
  };

/** The replay of a history: users, summaries, model text and every tool call with its recorded result. */
export const replayOf = (history: History, toolbox: Toolbox, place: ToolPlace): readonly ReplayItem[] => {
  const results = new Map<string, ToolResultMessage>();
  for (const m of history) if (m.role === "tool") results.set(m.callId, m);
  return pipe(conversationOf(history), RA.chain(itemsOf(results, toolbox, place)));
};
