/**
 * Tools as values: `defineTool` declares a tool whole — its name and description for the model, one
 * input schema (JSON Schema, check and TypeScript type at once), how a call reads to the user (title,
 * kind, files), whether the user is asked first, what it counts as, and what it does.
 */
import type { Result } from "neverthrow";
import type { FileDiff, ImageData } from "../history/message.js";
import type { ChangeTracker, KeptFile } from "../ports/change-tracker.js";
import type { FileSystem } from "../ports/file-system.js";
import type { ToolSpec } from "../ports/model.js";
import type { Shell } from "../ports/shell.js";
import type { SkillCatalogue } from "../ports/skill-catalogue.js";
import { inputProblemText } from "../schema/problem-text.js";
import type { Schema } from "../schema/schema.js";
import type { ToolKind } from "../vocabulary/tool-call-view.js";

/** What a call that ran counts as in the turn's summary line: commands, file operations or skills. */
export type ToolCategory = "command" | "file" | "skill";

/** Limits every tool honours. */
export type ToolLimits = {
  /** Default timeout of a shell command, in milliseconds. */
  readonly bashTimeoutMs: number;
  /** Output kept for the model (head and tail), in UTF-8 bytes. */
  readonly maxOutputBytes: number;
};

/** Where relative paths of a tool call resolve: the session's cwd, and `~`. */
export type ToolPlace = { readonly cwd: string; readonly home?: string };

/** The session's additional directories (ACP `additionalDirectories`): absolute, writable like the cwd, watched for changes. */
export type ToolRoots = { readonly roots?: readonly string[] };

/** What a running tool may use: the session's place, the ports, the limits and the turn's signal. */
export type ToolContext = ToolPlace &
  ToolRoots & {
    readonly fs: FileSystem;
    readonly shell: Shell;
    readonly skills: SkillCatalogue;
    readonly limits: ToolLimits;
    /** Aborted when the user cancels the turn. */
    readonly signal: AbortSignal;
    /** The session the call runs in (absent outside a turn). */
    readonly sessionId?: string;
    /** The call's id (`call_N`), while one runs. */
    readonly callId?: string;
    /** The model reads images: a tool may return them (e.g. read_file of a screenshot). */
    readonly vision?: boolean;
    /** Reports the files a shell command changed; absent: no diffs for commands. */
    readonly changes?: ChangeTracker;
    /** A line for the operator's log (each distinct line is written once). */
    readonly warn: (line: string) => void;
    /**
     * Shows the user more of the call's output while it runs (the new text only, in order); absent
     * when nobody is watching. Returns at once.
     */
    readonly progress?: (text: string) => void;
  };

/** How a command a call ran ended: its exit code, or the signal that killed it. */
export type CommandExit = { readonly code: number | null; readonly signal: string | null };

/** How a call ended: its status, the text the model receives, and the files it changed. */
export type ToolOutcome = {
  readonly status: "completed" | "failed";
  readonly output: string;
  readonly diffs: readonly FileDiff[];
  /** Images for the model and the user, beside the output. */
  readonly images?: readonly ImageData[];
  /** For a call that ran a command: how it ended (shown beside its live output; not recorded). */
  readonly exit?: CommandExit;
  /**
   * What a path of `diffs` held before the call, when the tool kept it (a command's change tracker):
   * its bytes (and mode), null when it did not exist, undefined when not kept. For `/undo`; not recorded.
   */
  readonly before?: (path: string) => KeptFile | null | undefined;
  /** Whether a path of `diffs` is hidden: named only, never to be read (a command's change tracker). Not recorded. */
  readonly hidden?: (path: string) => boolean;
};

/** One entry of the task list a plan tool keeps (ACP's plan entries). */
export type PlanEntry = {
  readonly content: string;
  readonly priority: "high" | "medium" | "low";
  readonly status: "pending" | "in_progress" | "completed";
};

/** Everything that declares a tool; `Input` is the type its schema checks. */
export type ToolDefinition<Input> = {
  /** The name the model calls it by; matched exactly (a differently cased name is unknown). */
  readonly name: string;
  /** What the model is told the tool does. */
  readonly description: string;
  /** Its line in the system prompt's tool list; the description when absent. */
  readonly guidance?: string;
  readonly kind: ToolKind;
  /** What a call that ran counts as in the turn's summary; absent: not counted. */
  readonly counts?: ToolCategory;
  /** Whether the user is asked before each call runs. */
  readonly gated: boolean;
  /** Whether the call reports its output while it runs (`ctx.progress`), as a terminal would show it. */
  readonly streamsOutput?: boolean;
  readonly input: Schema<Input>;
  /** The call's title for the user, e.g. `bash: ls`. */
  readonly title: (input: Input) => string;
  /** Absolute paths of the files the call involves. */
  readonly locations?: (input: Input, place: ToolPlace) => readonly string[];
  /** The change the call would make, shown before the user is asked. Never throws. */
  readonly preview?: (input: Input, ctx: ToolContext) => Promise<readonly FileDiff[]>;
  /** Runs the call. Never throws: a failure is a `failed` outcome with a message for the model. */
  readonly run: (input: Input, ctx: ToolContext) => Promise<ToolOutcome>;
  /** For a tool that keeps the task list: the whole list a call sets (shown to the user, replayed on load). */
  readonly plan?: (input: Input) => readonly PlanEntry[];
  /** What the model is told when the user rejects a call; {@link REJECTED} when absent. */
  readonly rejected?: string;
  /** Keep each call's title, kind and files in the session: the tool may be gone when it is loaded. */
  readonly recordsView?: boolean;
  /** Whether a session starting now is offered the tool (e.g. only with an editor that can show it); always when absent. */
  readonly offered?: () => boolean;
  /**
   * The call neither reads nor changes files (a question to the user): it runs without holding its
   * session's place (session/place-lock.ts), so one waiting for the user holds up no other session's tools.
   */
  readonly placeFree?: boolean;
};

/** What the model receives for a call of a built-in tool the user rejected (the spec's wording). */
export const REJECTED = "[command rejected by the user]";

/** A call whose input checked: what the engine shows, asks about and runs. */
export type PreparedCall = {
  readonly title: string;
  readonly locations: (place: ToolPlace) => readonly string[];
  readonly preview: (ctx: ToolContext) => Promise<readonly FileDiff[]>;
  readonly run: (ctx: ToolContext) => Promise<ToolOutcome>;
  /** The task list the call sets, for a plan tool. */
  readonly plan: readonly PlanEntry[] | undefined;
};

/** A tool as the engine holds it, whatever its input type. Made by {@link defineTool}. */
export type Tool = {
  readonly spec: ToolSpec;
  readonly guidance: string;
  readonly kind: ToolKind;
  readonly counts: ToolCategory | undefined;
  readonly gated: boolean;
  /** Calls report their output while they run (see {@link ToolDefinition.streamsOutput}). */
  readonly streamsOutput: boolean;
  /** What the model is told when the user rejects a call. */
  readonly rejected: string;
  /** See {@link ToolDefinition.recordsView}. */
  readonly recordsView: boolean;
  /** See {@link ToolDefinition.offered}. */
  readonly offered: () => boolean;
  /** See {@link ToolDefinition.placeFree}. */
  readonly placeFree: boolean;
  /** Checks a call's input: the prepared call, or why the input is refused (for the model). */
  readonly prepare: (input: unknown) => Result<PreparedCall, string>;
};

const NO_DIFFS: readonly FileDiff[] = [];

/** Declares a tool. */
export const defineTool = <Input>(definition: ToolDefinition<Input>): Tool => ({
  spec: { name: definition.name, description: definition.description, inputSchema: definition.input.jsonSchema },
  guidance: definition.guidance ?? definition.description,
  kind: definition.kind,
  counts: definition.counts,
  gated: definition.gated,
  streamsOutput: definition.streamsOutput === true,
  rejected: definition.rejected ?? REJECTED,
  recordsView: definition.recordsView === true,
  offered: definition.offered ?? (() => true),
  placeFree: definition.placeFree === true,
  prepare: (raw) =>
    definition.input
      .check(raw)
      .mapErr(inputProblemText)
      .map((input) => ({
        title: definition.title(input),
        locations: (place) => definition.locations?.(input, place) ?? [],
        preview: async (ctx) => (definition.preview === undefined ? NO_DIFFS : definition.preview(input, ctx)),
        run: (ctx) => definition.run(input, ctx),
        plan: definition.plan?.(input),
      })),
});

/** A completed outcome. */
export const completed = (output: string, diffs: readonly FileDiff[] = [], images: readonly ImageData[] = []): ToolOutcome =>
  images.length === 0 ? { status: "completed", output, diffs } : { status: "completed", output, diffs, images };

/** A failed outcome (the tool failed or did not run). */
export const failed = (output: string, diffs: readonly FileDiff[] = []): ToolOutcome => ({ status: "failed", output, diffs });
