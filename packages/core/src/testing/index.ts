/** In-memory adapters of every port, for tests and for programs embedding @mm/core. */
export * from "./in-memory-file-system.js";
export * from "./scripted-shell.js";
export * from "./scripted-model.js";
export * from "./scripted-permission-gate.js";
export * from "./in-memory-skill-catalogue.js";
export * from "./fixed-clock.js";
export * from "./in-memory-session-store.js";
export * from "./in-memory-change-tracker.js";
