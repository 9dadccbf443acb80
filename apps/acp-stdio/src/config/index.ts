/** mm-acp's configuration: one JSON file plus the environment (see the README's reference). */
export { loadConfig, loadProcessConfig, redactedSummary } from "./config.js";
export type { AcpSurface, LoadedConfig, MmConfig } from "./config-types.js";
export { DEFAULT_MODEL } from "./config-defaults.js";
export { findConfigFile, userConfigPath, userStateDir } from "./config-file.js";
export { formatKeyPath, validateFileConfig } from "./config-schema.js";
