/**
 * @mm/node: the Node adapters of @mm/core's ports (local files, bash) and mm's configuration
 * loading, for the ACP app and for other programs embedding the core.
 */
export { nodeFileSystem, DEFAULT_MAX_READ_BYTES, type NodeFileSystemOptions } from "./node-file-system.js";
export { fsErrorOf, type FsOperation } from "./fs-error.js";
export { bashShell, type BashShell, type BashShellOptions } from "./bash-shell.js";
export { boundedOutput, cutMarker, type OutputBuffer } from "./output-buffer.js";
export { isGroupAlive, signalGroup, terminateGroup, type TerminateOptions } from "./process-group.js";
export { loadConfig, loadProcessConfig, redactedSummary, expandPath, type ConfigInputs } from "./config.js";
export type { ConfigError, LoadedConfig, MmConfig, ModelApi } from "./config-types.js";
export { DEFAULT_MODEL, DEFAULT_SKILL_DIRS, DEFAULT_THRESHOLD_RATIO, DEFAULTS } from "./config-defaults.js";
export { findConfigFile, configArgument, readConfigFile, type ConfigCandidate, type ConfigLocation } from "./config-file.js";
export { validateFileConfig, formatKeyPath, type FileConfig } from "./config-schema.js";
export { jsonSessionStore, type JsonSessionStoreOptions } from "./json-session-store.js";
export { SESSION_FORMAT, SESSION_VERSION, decodeSessionDocument, encodeSessionDocument, type SessionDocumentError } from "./json-session-document.js";
export { loadDiskSkillCatalogue, MAX_SKILL_FILES } from "./disk-skill-catalogue.js";
export { changeTracker, DEFAULT_TRACKING_LIMITS, type ChangeTrackingOptions } from "./change-tracker.js";
