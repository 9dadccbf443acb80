/** What a tool is to the engine: its schema for the model, input parsing, and execution. */
import type { Result } from "neverthrow";
import type { FileDiff } from "../history/message.js";
import type { ChangeTracker } from "../ports/change-tracker.js";
import type { FileSystem } from "../ports/file-system.js";
import type { ToolSpec } from "../ports/model.js";
import type { Shell } from "../ports/shell.js";
import type { SkillCatalogue } from "../ports/skill-catalogue.js";

export type ToolLimits = {
  readonly bashTimeoutMs: number;
  readonly maxOutputBytes: number;
};

/** Where relative paths of a tool call resolve. */
export type ToolPlace = { readonly cwd: string; readonly home?: string };

export type ToolContext = ToolPlace & {
  readonly fs: FileSystem;
  readonly shell: Shell;
  readonly skills: SkillCatalogue;
  readonly limits: ToolLimits;
  readonly signal: AbortSignal;
  /** Reports the files a bash call changed; absent: no diffs for bash. */
  readonly changes?: ChangeTracker;
  /** A line for the operator's log (stderr), e.g. that file changes cannot be tracked here. */
  readonly warn?: (line: string) => void;
};

export type ToolOutcome = {
  readonly status: "completed" | "failed";
  readonly output: string;
  readonly diffs: readonly FileDiff[];
};

export type Tool<Input> = {
  readonly spec: ToolSpec;
  /** Whether the user is asked before it runs. */
  readonly gated: boolean;
  readonly parse: (input: unknown) => Result<Input, string>;
  /** Absolute paths of the files the call involves. */
  readonly locations: (input: Input, where: ToolPlace) => readonly string[];
  /** The change an edit would make, shown before permission is asked. */
  readonly preview: (input: Input, ctx: ToolContext) => Promise<readonly FileDiff[]>;
  /** Never throws: failures are `failed` outcomes with a message for the model. */
  readonly run: (input: Input, ctx: ToolContext) => Promise<ToolOutcome>;
};

export const completed = (output: string, diffs: readonly FileDiff[] = []): ToolOutcome => ({
  status: "completed",
  output,
  diffs,
});
export const failed = (output: string): ToolOutcome => ({ status: "failed", output, diffs: [] });
export const noPreview = async (): Promise<readonly FileDiff[]> => [];
