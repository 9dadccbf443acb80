/**
 * A ChangeTracker over an InMemoryFileSystem: `begin` copies the files under the cwd, `finish`
 * compares them with the map as it is then. Same notes as the real adapters, sizes in characters.
 */
import { errAsync, okAsync } from "neverthrow";
import type { FileDiff } from "../history/message.js";
import type { ChangeTracker } from "../ports/change-tracker.js";
import { sizeText } from "../tools/size-text.js";
import type { InMemoryFileSystem } from "./in-memory-file-system.js";

/** Limits and failures of the in-memory tracker. */
export type InMemoryChangeTrackerOptions = {
  /** Texts longer than this are named with a note, not diffed. Default 256 Ki characters. */
  readonly maxFileBytes?: number;
  /** When set, every `begin` fails `unavailable` with this reason. */
  readonly unavailable?: string;
};

/** A ChangeTracker over an InMemoryFileSystem, recording each `begin`. */
export type InMemoryChangeTracker = ChangeTracker & {
  /** The cwd of every `begin`, in order. */
  readonly begun: string[];
};

const under = (cwd: string, path: string): boolean => path.startsWith(cwd.endsWith("/") ? cwd : `${cwd}/`);

const filesUnder = (files: ReadonlyMap<string, string>, cwd: string): Map<string, string> => new Map([...files].filter(([path]) => under(cwd, path)));

const verbOf = (before: string | undefined, after: string | undefined): string =>
  before === undefined ? "created" : after === undefined ? "deleted" : "changed";

const diffOf = (path: string, before: string | undefined, after: string | undefined, maxFileBytes: number): FileDiff => {
  const texts = [before, after].filter((text): text is string => text !== undefined);
  const verb = verbOf(before, after);
  if (texts.some((text) => text.length > maxFileBytes)) {
    return { path, oldText: null, newText: null, note: `file ${verb}, not shown: larger than ${sizeText(maxFileBytes)}` };
  }
  if (texts.some((text) => text.includes("\u0000"))) return { path, oldText: null, newText: null, note: `binary file ${verb}, not shown` };
  return { path, oldText: before ?? null, newText: after ?? null };
};

/** A ChangeTracker comparing the in-memory files before and after. */
export const inMemoryChangeTracker = (fs: InMemoryFileSystem, options: InMemoryChangeTrackerOptions = {}): InMemoryChangeTracker => {
  const begun: string[] = [];
  const maxFileBytes = options.maxFileBytes ?? 256 * 1024;
  return {
    begun,
    begin: (cwd) => {
      begun.push(cwd);
      if (options.unavailable !== undefined) return errAsync({ kind: "unavailable", reason: options.unavailable });
      const before = filesUnder(fs.files, cwd);
      return okAsync({
        // What a path held at `begin` (UTF-8), when within the size limit.
        before: (path: string) => {
          const text = before.get(path);
          if (text === undefined) return null;
          return text.length > maxFileBytes ? undefined : { bytes: new TextEncoder().encode(text) };
        },
        finish: () => {
          const after = filesUnder(fs.files, cwd);
          const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
          const changed = paths.filter((path) => before.get(path) !== after.get(path));
          return okAsync(changed.map((path) => diffOf(path, before.get(path), after.get(path), maxFileBytes)));
        },
      });
    },
  };
};
