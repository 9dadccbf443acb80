/**
 * The change tracker as the agent uses it when sessions are kept on disk: what changes in mm's sessions
 * dir (session files, journals, locks, `/undo`'s data) is mm's own writing, never a command's change. With
 * sessions side by side, another session sharing the cwd saves there while a command runs; reported, its
 * file would show as that command's diff and `/undo` would take it back.
 */
import { isAbsolute, resolve, sep } from "node:path";
import type { ChangeTracker } from "@mm/core";

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);

/** `tracker` whose snapshots leave out paths in the sessions dir (`sessionsDir`, relative ones against the cwd). */
export const ownFilesUnreported = (tracker: ChangeTracker, sessionsDir: string): ChangeTracker => ({
  begin: (cwd) =>
    tracker.begin(cwd).map((snapshot) => {
      const own = isAbsolute(sessionsDir) ? sessionsDir : resolve(cwd, sessionsDir);
      return { ...snapshot, finish: () => snapshot.finish().map((diffs) => diffs.filter((diff) => !inside(diff.path, own))) };
    }),
});
