/** How a tool call is shown to the user: the title, kind and places the editor displays. */
import type { FileDiff } from "../history/message.js";

export type ToolKind = "execute" | "read" | "edit";

export type ToolCallView = {
  readonly id: string;
  readonly name: string;
  readonly title: string;
  readonly kind: ToolKind;
  readonly input: unknown;
  /** Absolute paths of the files involved. */
  readonly locations: readonly string[];
  /** For edits, the proposed change, so the user judges it before allowing it. */
  readonly diffs: readonly FileDiff[];
};

const field = (input: unknown, key: string): string => {
  if (typeof input !== "object" || input === null) return "";
  const value = (input as Record<string, unknown>)[key];
  return typeof value === "string" ? value : "";
};

/** The spec's titles: `bash: <command>`, `read_file: <path>`, … (path as the model gave it). */
export const toolTitle = (name: string, input: unknown): string => {
  switch (name) {
    case "bash":
      return `bash: ${field(input, "command")}`;
    case "read_file":
    case "write_file":
    case "edit_file":
      return `${name}: ${field(input, "path")}`;
    case "read_skill":
      return `read_skill: ${field(input, "name")}`;
    default:
      return name;
  }
};

/** The spec's kinds; any unknown tool counts as `execute`. */
export const toolKind = (name: string): ToolKind => {
  switch (name) {
    case "read_file":
    case "read_skill":
      return "read";
    case "write_file":
    case "edit_file":
      return "edit";
    default:
      return "execute";
  }
};
