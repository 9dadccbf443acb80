/**
 * `update_plan {entries}`: the model keeps a short task list the user sees (ACP `plan` updates, the whole
 * list each time) and that a load replays. Never gated, not counted; offered on the "full" surface.
 */
import { object } from "../schema/object.js";
import { array, oneOf, string } from "../schema/schema.js";
import { completed, defineTool } from "./tool.js";

export const planTool = defineTool({
  name: "update_plan",
  description:
    "Keep a short task list for the user, who sees it beside the conversation. Send the whole list each time (3–7 entries for work of several steps), marking entries in_progress and completed as you go. Not for one-step requests.",
  guidance: "keep a short task list the user sees for work of several steps (send the whole list each time, update statuses as you go).",
  kind: "think",
  gated: false,
  input: object({
    entries: array(
      object({
        content: string({ description: "What the task is, in a few words" }),
        priority: oneOf(["high", "medium", "low"]),
        status: oneOf(["pending", "in_progress", "completed"]),
      }),
    ),
  }),
  title: (input) => `update_plan: ${input.entries.length} task(s)`,
  run: async (input) => {
    const done = input.entries.filter((e) => e.status === "completed").length;
    return completed(`plan updated: ${done} of ${input.entries.length} task(s) completed`);
  },
  plan: (input) => input.entries,
});
