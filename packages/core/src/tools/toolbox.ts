/** A session's tools by name, and what the model is offered. */
import type { ToolSpec } from "../ports/model.js";
import type { Tool } from "./tool.js";

/** The tools one session may call. */
export type Toolbox = {
  readonly tools: readonly Tool[];
  readonly byName: ReadonlyMap<string, Tool>;
  /** What each model request offers, in order. */
  readonly specs: readonly ToolSpec[];
};

/** The toolbox of `tools`; a later tool of the same name replaces an earlier one, in its place. */
export const toolboxOf = (tools: readonly Tool[]): Toolbox => {
  const byName = new Map<string, Tool>();
  for (const tool of tools) byName.set(tool.spec.name, tool);
  const unique = [...byName.values()];
  return { tools: unique, byName, specs: unique.map((tool) => tool.spec) };
};
