/** An in-memory FileSystem: a map of absolute paths to texts, directories implied by them. */
import { errAsync, okAsync } from "neverthrow";
import type { FileSystem } from "../ports/file-system.js";

/** A FileSystem whose files are a map you can read and change. */
export type InMemoryFileSystem = FileSystem & { readonly files: Map<string, string> };

/** An in-memory FileSystem holding `initial`. */
export const inMemoryFileSystem = (initial: Record<string, string> = {}): InMemoryFileSystem => {
  const files = new Map(Object.entries(initial));
  const isDirectory = (path: string): boolean => {
    const prefix = path.endsWith("/") ? path : `${path}/`;
    for (const key of files.keys()) if (key.startsWith(prefix)) return true;
    return false;
  };
  return {
    files,
    readText: (path) => {
      const text = files.get(path);
      if (text !== undefined) return text.includes("\u0000") ? errAsync({ kind: "binary", path }) : okAsync(text);
      return isDirectory(path) ? errAsync({ kind: "is-directory", path }) : errAsync({ kind: "not-found", path });
    },
    writeText: (path, text) => {
      if (isDirectory(path)) return errAsync({ kind: "is-directory", path });
      files.set(path, text);
      return okAsync(undefined);
    },
    stat: (path) => {
      const text = files.get(path);
      if (text !== undefined) return okAsync({ kind: "file", size: text.length });
      return isDirectory(path) ? okAsync({ kind: "directory", size: 0 }) : errAsync({ kind: "not-found", path });
    },
  };
};
