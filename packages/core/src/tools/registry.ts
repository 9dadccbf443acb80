/** The five tools of mm, by name. */
import type { ToolSpec } from "../ports/model.js";
import { bashTool } from "./bash-tool.js";
import { editFileTool } from "./edit-file-tool.js";
import { readFileTool } from "./read-file-tool.js";
import { readSkillTool } from "./read-skill-tool.js";
import type { Tool } from "./tool.js";
import { writeFileTool } from "./write-file-tool.js";

export const tools: ReadonlyMap<string, Tool<unknown>> = new Map<string, Tool<unknown>>([
  ["bash", bashTool as Tool<unknown>],
  ["read_file", readFileTool as Tool<unknown>],
  ["write_file", writeFileTool as Tool<unknown>],
  ["edit_file", editFileTool as Tool<unknown>],
  ["read_skill", readSkillTool as Tool<unknown>],
]);

export const toolSpecs: readonly ToolSpec[] = [...tools.values()].map((t) => t.spec);
