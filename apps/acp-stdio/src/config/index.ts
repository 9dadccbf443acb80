/** mm-acp's configuration: one JSON file plus the environment (see the README's reference). */
export { loadConfig, loadProcessConfig, redactedSummary, type ConfigInputs } from "./config.js";
export type { AcpSurface, ConfigError, LoadedConfig, MmConfig, ModelApi, SandboxMode } from "./config-types.js";
export { DEFAULT_MODEL } from "./config-defaults.js";
export { findConfigFile, userConfigPath, userStateDir, type ConfigCandidate, type ConfigLocation } from "./config-file.js";
export { configFileSchema, formatKeyPath, validateFileConfig, type FileConfig, type Problem } from "./config-schema.js";
