/**
 * The agent's state, owned in one place: its ports and settings, the live sessions, the process-wide
 * turn queue and call-id counter. Only the functions of this folder see it; embedders and front ends
 * get the {@link Agent} record of `create-agent.ts`.
 */
import type { ChangeTracker } from "../ports/change-tracker.js";
import type { Clock, RandomHex } from "../ports/clock.js";
import type { ContextFiles } from "../ports/context-files.js";
import type { FileSystem } from "../ports/file-system.js";
import type { Model } from "../ports/model.js";
import type { PermissionGate } from "../ports/permission-gate.js";
import type { SessionStore } from "../ports/session-store.js";
import type { Shell } from "../ports/shell.js";
import type { UndoLimits, UndoStore } from "../ports/undo-store.js";
import type { SkillCatalogue } from "../ports/skill-catalogue.js";
import type { CallIds } from "../session/call-ids.js";
import type { Session } from "../session/session.js";
import type { PlaceLock } from "../session/place-lock.js";
import type { TurnQueues } from "../session/turn-queue.js";
import type { Tool } from "../tools/tool.js";
import type { Toolbox } from "../tools/toolbox.js";
import type { Confined, TurnSettings } from "../turn/run-turn.js";

/** The ports an agent runs on. */
export type AgentDeps = {
  readonly model: Model;
  /** The local files: tools (unless a session has its own), `@path` attachments. */
  readonly fs: FileSystem;
  /**
   * What mm reads on its own for the model (a cwd's AGENTS.md), through the host's one boundary
   * (a regular file inside the cwd, no link out, nothing hidden); `fs`, kept to the cwd, when absent.
   */
  readonly contextFiles?: ContextFiles | undefined;
  readonly shell: Shell;
  readonly skills: SkillCatalogue;
  /** Asked before every gated tool call. */
  readonly gate: PermissionGate;
  /** The `sandbox` permission mode's confined shell and file system; absent, that mode confines nothing. */
  readonly confined?: Confined | undefined;
  readonly clock: Clock;
  readonly random: RandomHex;
  /** Keeps sessions on disk; absent, sessions live in memory only and cannot be loaded. */
  readonly store?: SessionStore | undefined;
  /** Reports what each bash call changed on disk; absent, bash results carry no diffs. */
  readonly changes?: ChangeTracker | undefined;
  /** Keeps what `/undo` needs (before-states, the log of turns); absent, there is no `/undo`. */
  readonly undo?: UndoStore | undefined;
  /** The tools every session has; the five built-in ones when absent. */
  readonly tools?: readonly Tool[] | undefined;
  /** A session's own file access for its tools (e.g. through the editor), when not `fs`. */
  readonly sessionFs?:
    | ((session: { readonly id: string; readonly cwd: string; readonly roots?: () => readonly string[] }) => FileSystem | undefined)
    | undefined;
  /** A line for the operator (stderr in the ACP app); nothing is logged when absent. */
  readonly log?: ((line: string) => void) | undefined;
  /**
   * A problem the operator should see even in a quiet log: a failed turn, a session not saved, a
   * tool's warning. `log` when absent.
   */
  readonly warn?: ((line: string) => void) | undefined;
};

/** How the agent runs turns, and the OS line of its system prompt. */
export type AgentSettings = TurnSettings & {
  /** The OS line of the system prompt, e.g. `linux x64`. */
  readonly os: string;
  /** What `/undo` keeps; DEFAULT_UNDO_LIMITS when absent. */
  readonly undoLimits?: UndoLimits;
  /**
   * Turns serialised per session (sessions side by side) rather than one at a time for the process;
   * tool calls then hold their session's cwd (see `places`). False when absent.
   */
  readonly sessionsSideBySide?: boolean;
};

/** A session of this process, with what its turns need beside the session value. */
export type LiveSession = {
  /** The session as it is now; replaced by each turn and command. */
  session: Session;
  /** Its tools: the agent's and its own; replaced when its own change (a running turn keeps its set). */
  toolbox: Toolbox;
  /** The session's additional directories (ACP `additionalDirectories`), as given to session/new, load or resume (the last). */
  roots: readonly string[];
  readonly fs: FileSystem | undefined;
  /** One controller per prompt running or queued; cancelling aborts them all. */
  readonly inFlight: Set<AbortController>;
  /** Why the session's last save failed; undefined while what it holds is on disk (or there is no store). */
  saveProblem: string | undefined;
  /** The model server refused images this process sent: from then on they go as placeholders (told once). */
  imagesRefused?: boolean;
  /** Why what the turn at `at` changed could not be kept for `/undo` (its record's save failed). */
  undoNotKept?: { readonly at: number; readonly reason: string } | undefined;
};

/** The agent's whole state; see the module comment. */
export type AgentState = {
  readonly deps: AgentDeps;
  readonly settings: AgentSettings;
  readonly tools: readonly Tool[];
  readonly sessions: Map<string, LiveSession>;
  /** The turns' queues: one per session with `sessionsSideBySide`, one for the process without it. */
  readonly queue: TurnQueues;
  /** Held by every tool call for its session's cwd: sessions sharing a cwd never run tools at once. */
  readonly places: PlaceLock;
  readonly callIds: CallIds;
  readonly log: (line: string) => void;
  /** A problem for the operator (`deps.warn`, else the log). */
  readonly problem: (line: string) => void;
  /** Problems, each distinct line once for the life of the agent (tools' warnings). */
  readonly warn: (line: string) => void;
};

/** Aborts everything a session has running or queued. */
export const cancelLive = (live: LiveSession): void => {
  for (const controller of live.inFlight) controller.abort();
};

/** Cancels what `live` runs and drops it from the agent. */
export const forgetLive = (state: AgentState, live: LiveSession): void => {
  cancelLive(live);
  state.sessions.delete(live.session.id);
};
