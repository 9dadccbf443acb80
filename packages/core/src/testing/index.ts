/**
 * @mm/core/testing — an in-memory adapter of every port, for tests and for programs embedding
 * @mm/core: files in a map, scripted model, shell and permission answers, a manual clock.
 */
export { inMemoryFileSystem, type InMemoryFileSystem } from "./in-memory-file-system.js";
export { scriptedShell, type ScriptedShell, type ShellScript } from "./scripted-shell.js";
export { errorReply, hangingReply, scriptedModel, textReply, toolReply, type ScriptedModel, type ScriptedReply } from "./scripted-model.js";
export { scriptedGate, type ScriptedGate } from "./scripted-permission-gate.js";
export { scriptedQuestions, type ScriptedQuestions } from "./scripted-user-questions.js";
export { inMemorySkillCatalogue, type InMemorySkill } from "./in-memory-skill-catalogue.js";
export { counterHex, manualClock, type ManualClock } from "./fixed-clock.js";
export { inMemorySessionStore, type InMemorySessionStore } from "./in-memory-session-store.js";
export { sessionStoreContract, type StoreContractCase, type StoreWorld } from "./session-store-contract.js";
export { inMemoryChangeTracker, type InMemoryChangeTracker, type InMemoryChangeTrackerOptions } from "./in-memory-change-tracker.js";
export { inMemoryUndoStore, type InMemoryUndoStore } from "./in-memory-undo-store.js";
