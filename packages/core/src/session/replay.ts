/** What a `session/load` replays: one item per stored element, in order, the system prompt left out. */
import type { History, ToolResultMessage } from "../history/message.js";
import { tools } from "../tools/registry.js";
import type { ToolOutcome } from "../tools/tool.js";
import { toolKind, toolTitle, type ToolCallView } from "../tools/tool-view.js";

export type ReplayItem =
  | { readonly type: "user"; readonly text: string }
  | { readonly type: "summary"; readonly text: string }
  | { readonly type: "agent"; readonly text: string }
  | {
      readonly type: "tool";
      readonly call: ToolCallView;
      /** Absent when no response was recorded: replayed as `failed` with no content. */
      readonly result: ToolOutcome | undefined;
    };

/** The files a call involves, as the live tool shows them (nothing for an input that does not parse). */
const locationsOf = (name: string, input: unknown, cwd: string, home: string | undefined): readonly string[] => {
  const tool = tools.get(name);
  const parsed = tool?.parse(input);
  if (tool === undefined || parsed === undefined || parsed.isErr()) return [];
  return tool.locations(parsed.value, home !== undefined ? { cwd, home } : { cwd });
};

export const replayOf = (history: History, cwd: string, home?: string): readonly ReplayItem[] => {
  const results = new Map<string, ToolResultMessage>();
  for (const m of history) if (m.role === "tool") results.set(m.callId, m);
  const items: ReplayItem[] = [];
  for (const m of history) {
    if (m.role === "user") items.push({ type: m.summary ? "summary" : "user", text: m.text });
    else if (m.role === "assistant") {
      if (m.text !== "") items.push({ type: "agent", text: m.text });
      for (const call of m.toolCalls) {
        const result = results.get(call.id);
        const diffs = result?.diffs ?? [];
        const locations = [...new Set([...locationsOf(call.name, call.input, cwd, home), ...diffs.map((d) => d.path)])];
        items.push({
          type: "tool",
          call: { id: call.id, name: call.name, title: toolTitle(call.name, call.input), kind: toolKind(call.name), input: call.input, locations, diffs },
          result: result === undefined ? undefined : { status: result.status, output: result.output, diffs },
        });
      }
    }
  }
  return items;
};
