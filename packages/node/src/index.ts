/**
 * @mm/node — the Node.js adapters of @mm/core's ports (local files, bash, sessions as JSON files,
 * skills on disk, what a command changed, the clock and randomness, a bubblewrap sandbox) and mm's
 * configuration loading, for the ACP app and for programs embedding the core.
 */

// Ports.
export { nodeFileSystem, DEFAULT_MAX_READ_BYTES, type NodeFileSystemOptions } from "./node-file-system.js";
export { bashShell, type BashShell, type BashShellOptions } from "./bash-shell.js";
export { boundedOutput, type OutputBuffer } from "./output-buffer.js";
export { jsonSessionStore, type JsonSessionStoreOptions } from "./json-session-store.js";
export { currentOwner, ownerAlive, type LockOwner } from "./process-identity.js";
export { loadDiskSkillCatalogue } from "./disk-skill-catalogue.js";
export { changeTracker, type ChangeTrackingOptions } from "./change-tracker.js";
export { cryptoRandomHex, platformLine, systemClock } from "./system-clock.js";

// The session file format.
export {
  SESSION_FORMAT,
  SESSION_VERSION,
  decodeSessionDocument,
  decodeSessionFile,
  encodeSessionDocument,
  type DecodedDocument,
  type SessionDocumentError,
} from "./json-session-document.js";
export { JOURNAL_FORMAT, JOURNAL_VERSION, journalHeader, journalLines, readJournal, type JournalReading } from "./session-journal.js";

// Configuration.
export { loadConfig, loadProcessConfig, redactedSummary, type ConfigInputs } from "./config.js";
export type { AcpSurface, ConfigError, LoadedConfig, MmConfig, ModelApi, SandboxMode } from "./config-types.js";
export { DEFAULT_MODEL } from "./config-defaults.js";
export { findConfigFile, userConfigPath, type ConfigCandidate, type ConfigLocation } from "./config-file.js";
export { configFileSchema, formatKeyPath, validateFileConfig, type FileConfig, type Problem } from "./config-schema.js";

// The bash sandbox.
export type { CommandWrapper } from "./command-wrapper.js";
export { bwrapSandbox, type BwrapSandbox, type BwrapSandboxOptions } from "./sandbox/bwrap-sandbox.js";
export { BUILT_IN_HIDDEN, type SandboxSettings } from "./sandbox/sandbox-settings.js";
export type { SandboxUnavailable } from "./sandbox/probe.js";
