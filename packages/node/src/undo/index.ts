export { nodeUndoStore, type NodeUndoStoreOptions } from "./node-undo-store.js";
export { MEMORY_UNDO_LIMITS, memoryUndoStore } from "./memory-undo-store.js";
export { processUndoKey, undoKeyFile, type UndoKeyLoader } from "./undo-key.js";
