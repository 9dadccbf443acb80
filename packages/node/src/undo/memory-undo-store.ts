/**
 * memoryUndoStore: `/undo` for sessions not kept on disk (`sessions.enabled` off). The workspace side
 * is nodeUndoStore's (local files, never through a link); the log and the before-states live in this
 * process's memory, so nothing is written anywhere mm was not asked to write, and they end with it.
 * Its budget is smaller than on disk (MEMORY_UNDO_LIMITS) since it is memory the agent holds.
 */
import { DEFAULT_UNDO_LIMITS, type UndoLimits, type UndoStore, undoDataInMemory } from "@mm/core";
import { localWorkspace, sha256 } from "./workspace-files.js";

/** 16 MiB a file, as on disk; 64 MiB a session. */
export const MEMORY_UNDO_LIMITS: UndoLimits = { maxFileBytes: DEFAULT_UNDO_LIMITS.maxFileBytes, maxSessionBytes: 64 * 1024 * 1024 };

/** The UndoStore port with its log and blobs in memory; no method throws or rejects. */
export const memoryUndoStore = (): UndoStore => {
  const { putBlob, getBlob, loadLog, saveLog } = undoDataInMemory(sha256, { forgetEmpty: true });
  return {
    ...localWorkspace,
    putBlob,
    getBlob,
    loadLog,
    saveLog,
    // No sessions dir is in use: every file of the workspace is the user's.
    owns: () => false,
  };
};
