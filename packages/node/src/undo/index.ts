export { nodeUndoStore, type NodeUndoStoreOptions } from "./node-undo-store.js";
