/**
 * Turns what node:fs throws into the FileSystem port's tagged FsError, so no adapter method ever
 * lets an exception escape.
 */
import type { FsError } from "../core-types.js";
import { errorCode } from "../errno.js";

/** Which operation failed: a parent that is a file means something else to a write than to a read. */
export type FsOperation = "read" | "write" | "stat";

const syscallOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "syscall" in error && typeof error.syscall === "string" ? error.syscall : undefined;

const ioMessage = (error: unknown): string => {
  const code = errorCode(error);
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  return `${syscallOf(error) ?? "i/o"} failed (${code})`;
};

/** The FsError for `error` thrown by node:fs while working on `path`. */
export const fsErrorOf = (path: string, error: unknown, operation: FsOperation = "read"): FsError => {
  switch (errorCode(error)) {
    case "ENOENT":
      return { kind: "not-found", path };
    case "ENOTDIR":
      return operation === "write" ? { kind: "io", path, message: "a parent is not a directory" } : { kind: "not-found", path };
    case "EACCES":
    case "EPERM":
      return { kind: "denied", path };
    case "EISDIR":
      return { kind: "is-directory", path };
    default:
      return { kind: "io", path, message: ioMessage(error) };
  }
};
