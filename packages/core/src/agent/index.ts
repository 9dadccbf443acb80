/** The agent API: `createAgent` and what its functions take and give. */
export { createAgent, type Agent, type LoadedSession, type SessionInfo, type UnknownSession } from "./create-agent.js";
export type { AgentDeps, AgentSettings } from "./agent-state.js";
export { DEFAULT_AGENT_SETTINGS } from "./default-settings.js";
export type { LoadError } from "./load-session.js";
export type { PromptResult, SessionRefused } from "./prompt-session.js";
export type { SessionOptions } from "./start-session.js";
export type { SettingsChange } from "./session-settings.js";
