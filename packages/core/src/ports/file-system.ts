/** The FileSystem port: the files tools read and write. Paths are absolute. */
import type { ResultAsync } from "neverthrow";

/** Why a file could not be read or written. */
export type FsError =
  | { readonly kind: "not-found"; readonly path: string }
  | { readonly kind: "denied"; readonly path: string }
  | { readonly kind: "is-directory"; readonly path: string }
  | { readonly kind: "binary"; readonly path: string }
  | { readonly kind: "too-large"; readonly path: string; readonly size: number }
  | { readonly kind: "io"; readonly path: string; readonly message: string };

/** What is at a path. */
export type FileStat = { readonly kind: "file" | "directory" | "other"; readonly size: number };

/** The FileSystem port. No method throws or rejects. */
export type FileSystem = {
  /** UTF-8 text of a file. Binary content (a NUL byte) fails `binary`; never throws. */
  readonly readText: (path: string) => ResultAsync<string, FsError>;
  /** Writes UTF-8 text, creating parent directories. */
  readonly writeText: (path: string, text: string) => ResultAsync<void, FsError>;
  /** What is at a path; `not-found` when nothing is. */
  readonly stat: (path: string) => ResultAsync<FileStat, FsError>;
  /** The bytes of a file (an image for a model that reads them); absent when the adapter cannot. */
  readonly readBytes?: (path: string) => ResultAsync<Uint8Array, FsError>;
  /**
   * Where a write to `path` lands: the target of the links on its way, the path itself when there is
   * none (the diff the user is asked about then names the real file); absent, the path is taken as it is.
   */
  readonly realPath?: (path: string) => ResultAsync<string, FsError>;
};

/** Where a write to `path` lands, by the adapter's `realPath`; `path` itself when it cannot say. */
export const landingPath = async (fs: FileSystem, path: string): Promise<string> =>
  fs.realPath === undefined ? path : (await fs.realPath(path)).unwrapOr(path);

/** One line for the model or the log. */
export const describeFsError = (error: FsError): string => {
  switch (error.kind) {
    case "not-found":
      return `no such file or directory: ${error.path}`;
    case "denied":
      return `permission denied: ${error.path}`;
    case "is-directory":
      return `is a directory: ${error.path}`;
    case "binary":
      return `binary file, not shown: ${error.path}`;
    case "too-large":
      return `file too large (${error.size} bytes): ${error.path}`;
    case "io":
      return `${error.message}: ${error.path}`;
  }
};
