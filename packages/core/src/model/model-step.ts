/**
 * Consumes one streamed model step: forwards text as it comes, collects tool calls and usage. The one
 * reading of the Model port: turns and compaction summaries both go through it.
 */
import { nestsDeeperThan, TOO_DEEP_INPUT } from "../history/input-depth.js";
import type { ReasoningPart } from "../history/message.js";
import type { FinishReason, ModelError, ModelRequest, Model, Usage } from "../ports/model.js";

/** A tool call as the model asked for it (its id is replaced by mm's own). */
export type StepCall = { readonly name: string; readonly input: unknown };

/** What one step produced. Tool calls are dropped when the step failed. */
export type StepResult = {
  readonly text: string;
  /** The reasoning streamed before the text and calls, by item. */
  readonly reasoning: readonly ReasoningPart[];
  readonly calls: readonly StepCall[];
  readonly usage: Usage | undefined;
  /** Why the model stopped, when the step finished. */
  readonly finishReason: FinishReason | undefined;
  readonly error: ModelError | undefined;
};

/** Runs one step; `onText` (and `onThought`) receive each text (reasoning) delta at once. Never throws. */
export const runModelStep = async (
  model: Model,
  request: ModelRequest,
  onText: (text: string) => void,
  onThought: (text: string) => void = () => undefined,
): Promise<StepResult> => {
  const { signal } = request;
  let text = "";
  const reasoning: ReasoningPart[] = [];
  /** The part a delta of `item` goes to: that item's; without an item, the last part when it has none either. */
  const partOf = (item: string | undefined): number => {
    const at = item !== undefined ? reasoning.findIndex((p) => p.item === item) : reasoning.at(-1)?.item === undefined ? reasoning.length - 1 : -1;
    if (at !== -1) return at;
    reasoning.push(item !== undefined ? { text: "", item } : { text: "" });
    return reasoning.length - 1;
  };
  const calls: StepCall[] = [];
  let usage: Usage | undefined;
  let finishReason: FinishReason | undefined;
  let error: ModelError | undefined;
  try {
    for await (const event of model.step(request)) {
      if (event.type === "text") {
        text += event.text;
        onText(event.text);
      } else if (event.type === "reasoning") {
        const at = partOf(event.item);
        reasoning[at] = { ...reasoning[at]!, text: reasoning[at]!.text + event.text };
        onThought(event.text);
      } else if (event.type === "reasoning-end") {
        const at = partOf(event.item);
        if (event.encrypted !== undefined) reasoning[at] = { ...reasoning[at]!, encrypted: event.encrypted };
      } else if (event.type === "tool-call") {
        calls.push({ name: event.name, input: nestsDeeperThan(event.input) ? TOO_DEEP_INPUT : event.input });
      } else if (event.type === "finish") {
        usage = event.usage;
        finishReason = event.reason ?? "stop";
        break;
      } else {
        error = event.error;
        break;
      }
      if (signal.aborted) break;
    }
  } catch (thrown) {
    error = { kind: "bad-response", message: `model adapter failed: ${String(thrown).split("\n")[0]}` };
  }
  if (signal.aborted) error = { kind: "aborted", message: "cancelled" };
  else if (error === undefined && usage === undefined) {
    error = { kind: "bad-response", message: "the model stream ended without finishing" };
  }
  return { text, reasoning, calls: error === undefined ? calls : [], usage, finishReason: error === undefined ? finishReason : undefined, error };
};
