export * from "./agent.js";
export * from "./start-session.js";
export * from "./prompt-session.js";
export * from "./load-session.js";
export * from "./slash-commands.js";
export * from "./persist.js";
export * from "./system-prompt-for.js";
