/**
 * @mm/node — the Node.js adapters of @mm/core's ports, one folder each: local files (files/), bash
 * (shell/), sessions as JSON files (sessions/), skills on disk (skills/), what a command changed
 * (change-tracking/), the clock and randomness (system/), the bubblewrap sandbox (sandbox/), and the
 * host's one boundary for what mm reads on its own for the model (boundary/), for
 * the ACP app and for programs embedding the core.
 */
export * from "./files/index.js";
export * from "./shell/index.js";
export * from "./shell-syntax/index.js";
export * from "./sessions/index.js";
export * from "./skills/index.js";
export * from "./change-tracking/index.js";
export * from "./system/index.js";
export * from "./sandbox/index.js";
export * from "./undo/index.js";
export * from "./permissions/index.js";
export * from "./boundary/index.js";
