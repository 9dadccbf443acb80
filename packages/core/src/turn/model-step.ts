/** Consumes one streamed model step: forwards text at once, collects tool calls and usage. */
import { nestsDeeperThan, TOO_DEEP_INPUT } from "../history/input-depth.js";
import type { Message } from "../history/message.js";
import type { Model, ModelError, ToolSpec, Usage } from "../ports/model.js";
import type { Emit } from "./events.js";

export type StepCall = { readonly name: string; readonly input: unknown };

export type StepResult = {
  readonly text: string;
  readonly calls: readonly StepCall[];
  readonly usage: Usage | undefined;
  readonly error: ModelError | undefined;
};

export const runModelStep = async (
  model: Model,
  system: string,
  messages: readonly Message[],
  tools: readonly ToolSpec[],
  signal: AbortSignal,
  emit: Emit,
): Promise<StepResult> => {
  let text = "";
  const calls: StepCall[] = [];
  let usage: Usage | undefined;
  let error: ModelError | undefined;
  try {
    for await (const event of model.step({ system, messages, tools, signal })) {
      if (event.type === "text") {
        text += event.text;
        emit({ type: "text", text: event.text });
      } else if (event.type === "tool-call") {
        calls.push({ name: event.name, input: nestsDeeperThan(event.input) ? TOO_DEEP_INPUT : event.input });
      } else if (event.type === "finish") {
        usage = event.usage;
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
  return { text, calls: error === undefined ? calls : [], usage, error };
};
