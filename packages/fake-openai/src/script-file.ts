/**
 * A script file for the fake server's `--script`: the model's answers, in order, as JSON, so a turn
 * with tool calls can be played from the command line (the README's transcript is one). Each step is
 * `{"text": "…"}` (an answer in word-sized chunks; `"delayMs": N` paces them, as a model streams) or
 * `{"calls": [{"name": "bash", "arguments": {"command": "ls"}}], "text": "…"}` (tool calls, with
 * optional text before them).
 */
import { type Reply, text, toolCalls } from "./replies.js";

type Step = { readonly text?: unknown; readonly calls?: unknown; readonly delayMs?: unknown };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const words = (value: string): string[] => value.split(/(?<= )/);

/** The replies a script's JSON text describes, or a one-line reason it is not a script. */
export const parseScript = (json: string): { readonly replies: readonly Reply[] } | { readonly problem: string } => {
  let steps: unknown;
  try {
    steps = JSON.parse(json);
  } catch (error) {
    return { problem: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!Array.isArray(steps)) return { problem: "a script is a JSON array of steps" };
  const replies: Reply[] = [];
  for (const [index, raw] of steps.entries()) {
    if (!isRecord(raw)) return { problem: `step ${index + 1} is not an object` };
    const step = raw as Step;
    if (step.text !== undefined && typeof step.text !== "string") return { problem: `step ${index + 1}: "text" must be a string` };
    if (step.delayMs !== undefined && (typeof step.delayMs !== "number" || !(step.delayMs >= 0 && step.delayMs <= 10_000))) {
      return { problem: `step ${index + 1}: "delayMs" must be a number of milliseconds, 0 to 10000` };
    }
    if (step.calls === undefined) {
      if (step.text === undefined) return { problem: `step ${index + 1} has neither "text" nor "calls"` };
      replies.push(step.delayMs === undefined ? text(words(step.text)) : { ...text(words(step.text)), delayMs: step.delayMs });
      continue;
    }
    if (!Array.isArray(step.calls) || step.calls.length === 0) return { problem: `step ${index + 1}: "calls" must be a non-empty array` };
    const calls = [];
    for (const call of step.calls) {
      if (!isRecord(call) || typeof call.name !== "string" || !(isRecord(call.arguments) || typeof call.arguments === "string")) {
        return { problem: `step ${index + 1}: each call needs a "name" string and an "arguments" object` };
      }
      calls.push({ name: call.name, arguments: call.arguments as Record<string, unknown> | string });
    }
    replies.push(toolCalls(calls, step.text));
  }
  return { replies };
};
