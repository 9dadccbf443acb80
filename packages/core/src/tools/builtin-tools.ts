/** The five tools of mm, in the order the model and the system prompt list them. */
import { bashTool } from "./bash-tool.js";
import { editFileTool } from "./edit-file-tool.js";
import { readFileTool } from "./read-file-tool.js";
import { readSkillTool } from "./read-skill-tool.js";
import type { Tool } from "./tool.js";
import { writeFileTool } from "./write-file-tool.js";

/** bash, read_file, write_file, edit_file, read_skill: an agent's tools unless its deps say otherwise. */
export const builtinTools: readonly Tool[] = [bashTool, readFileTool, writeFileTool, editFileTool, readSkillTool];
