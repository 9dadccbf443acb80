/**
 * @mm/core — the pure core of mm (Bob, a bash-first coding agent): sessions, the turn engine, tools,
 * compaction and skills over ports. No Node API, no AI SDK, no protocol: give it adapters (see
 * @mm/node, @mm/ai-model, or the in-memory ones of `@mm/core/testing`) and drive turns.
 */

// The agent.
export {
  createAgent,
  DEFAULT_AGENT_SETTINGS,
  type Agent,
  type AgentDeps,
  type AgentSettings,
  type LoadError,
  type LoadedSession,
  type PromptResult,
  type SessionInfo,
  type SessionRefused,
  type SessionOptions,
  type SettingsChange,
  type UnknownSession,
} from "./agent/index.js";
export { isPermissionMode, PERMISSION_MODES, type PermissionMode } from "./vocabulary/permission-mode.js";
export { titleOf, titleOfHistory } from "./session/title.js";
export type { Emit, NoticeSeverity, TurnEvent } from "./turn/events.js";
export type { Confined, StopReason, TurnCounts } from "./turn/run-turn.js";
export { stepCost, type Pricing } from "./turn/step-cost.js";
export type { ToolCallView, ToolKind } from "./vocabulary/tool-call-view.js";
export { redactDeep, type Redact } from "./turn/redact.js";
export type { ReplayItem } from "./session/replay.js";
export type { PromptBlock } from "./prompt/prompt-blocks.js";
export { shadowedSkills, type AvailableCommand } from "./commands/slash-command.js";

// Tools.
export {
  completed,
  defineTool,
  failed,
  type CommandExit,
  type PlanEntry,
  type PreparedCall,
  type Tool,
  type ToolCategory,
  type ToolContext,
  type ToolDefinition,
  type ToolLimits,
  type ToolOutcome,
  type ToolPlace,
} from "./tools/tool.js";
export { builtinTools } from "./tools/builtin-tools.js";
export { sizeText } from "./tools/size-text.js";
export { bashTool } from "./tools/bash-tool.js";
export { readFileTool } from "./tools/read-file-tool.js";
export { writeFileTool } from "./tools/write-file-tool.js";
export { editFileTool } from "./tools/edit-file-tool.js";
export { readSkillTool } from "./tools/read-skill-tool.js";
export { planTool } from "./tools/plan-tool.js";
export { askUserTool, choicesOf, DECLINED, DISMISSED, MAX_CHOICES } from "./tools/ask-user-tool.js";
export { truncateMiddle } from "./tools/truncate.js";

// Schemas (tool inputs, configuration).
export {
  anyObject,
  array,
  boolean,
  mapped,
  number,
  oneOf,
  optional,
  refined,
  string,
  type Infer,
  type JsonSchema,
  type Problem,
  type Schema,
} from "./schema/schema.js";
export { object, type ObjectOf, type ObjectOptions, type Shape } from "./schema/object.js";
export { formatKeyPath, inputProblemText, problemText, showValue } from "./schema/problem-text.js";

// The conversation.
export {
  assistantMessage,
  summaryMessage,
  systemMessage,
  userMessage,
  type AssistantMessage,
  type FileDiff,
  type History,
  type ImageData,
  type ReasoningPart,
  type Message,
  type SystemMessage,
  type ToolCall,
  type ShownCall,
  type ToolResultMessage,
  type UserMessage,
} from "./history/message.js";
export { NO_RESULT } from "./history/tool-results.js";
export { imagePlaceholder, withoutImages } from "./history/images-for-model.js";
export { boundImages, DEFAULT_IMAGE_BUDGET, imageBytesOf, type ImageBudget } from "./history/image-budget.js";
export { MAX_INPUT_DEPTH, nestsDeeperThan } from "./history/input-depth.js";
export { isSessionId } from "./session/session-id.js";
export { resolvePath } from "./paths/path.js";

// What mm reads over HTTP, bounded (model servers, MCP servers).
export {
  answerTooLargeIn,
  AnswerTooLarge,
  boundedFetch,
  MAX_ANSWER_BYTES,
  MAX_EVENT_BYTES,
  type BoundOptions,
} from "./http/bounded-fetch.js";

// Ports.
export type { FinishReason, Model, ModelError, ModelEvent, ModelRequest, ToolSpec, Usage } from "./ports/model.js";
export { describeFsError, landingPath, type FileStat, type FileSystem, type FsError } from "./ports/file-system.js";
export { contextFilesOn, type ContextFiles } from "./ports/context-files.js";
export type { Shell, ShellError, ShellRequest, ShellResult } from "./ports/shell.js";
export type { PermissionDecision, PermissionGate, PermissionRequest, ScreenRequest, Screening } from "./ports/permission-gate.js";
export { MAX_ANSWER_CHARS, type UserAnswer, type UserQuestion, type UserQuestionError, type UserQuestions } from "./ports/user-questions.js";
export * from "./permissions/index.js";
export type { Clock, RandomHex } from "./ports/clock.js";
export type { SkillCatalogue, SkillContent, SkillError, SkillSummary } from "./ports/skill-catalogue.js";
export { describeStoreError, type SessionStore, type StoreError, type StoredSession, type StoredSessionSummary } from "./ports/session-store.js";
export {
  DEFAULT_UNDO_LIMITS,
  describeUndoStoreError,
  type FileNow,
  type UndoFile,
  type UndoFileState,
  type UndoLimits,
  type UndoLog,
  type UndoPlace,
  type UndoStore,
  type UndoStoreError,
  type UndoTurn,
} from "./ports/undo-store.js";
export { undoDataInMemory, type UndoDataInMemory } from "./undo/undo-data-in-memory.js";
export {
  describeChangeTrackingError,
  type ChangeSnapshot,
  type ChangeTracker,
  type ChangeTrackingError,
  type KeptFile,
} from "./ports/change-tracker.js";
