/**
 * sandboxedFileSystem: the file tools' side of the sandbox. A FileSystem (local or the editor's)
 * seen the way a sandboxed command sees the disk: /tmp is the sandbox's private one, writes go only
 * to the session's cwd, /tmp and tools.writable, and hidden paths cannot be read. Links are
 * followed before deciding, the way a command would follow them (resolve-in-view.ts: a link to
 * `/tmp/x` leads to the private /tmp), and the path decided on is the one opened, so a symlink in the
 * project cannot lead a write or a read elsewhere; a write through a link to nothing is refused.
 */
import { err, ok, okAsync, ResultAsync, type Result } from "neverthrow";
import type { FileSystem, FsError } from "../core-types.js";
import { realPathOf } from "../boundary/real-path.js";
import { DANGLING_LINK_MESSAGE } from "../files/node-file-system.js";
import { resolveInView } from "./resolve-in-view.js";
import { hiddenPathsFor, readOnlyPathsFor, type SandboxSettings } from "./sandbox-settings.js";
import { isWithin, type SandboxView } from "./sandbox-view.js";

/** What the boundary of one session's file tools depends on. */
export type FileBoundary = {
  readonly settings: SandboxSettings;
  /** The host directory commands see as /tmp. */
  readonly privateTmp: string;
  /** The session's cwd; undefined until the session exists (then only /tmp and tools.writable are writable). */
  readonly cwd: () => string | undefined;
  /** The session's additional directories (ACP `additionalDirectories`): writable like the cwd, their `.mm` read-only as its. */
  readonly roots?: () => readonly string[];
};

export const HIDDEN_MESSAGE = "hidden by the sandbox (a secret: the built-in list or tools.hidden); do not try to read it another way";
export const READ_ONLY_MESSAGE =
  "refused by the sandbox: .mm (mm's sessions, undo data, config and skills) and the sessions directory are read-only for commands and file tools (mm writes them itself)";
export const OUTSIDE_MESSAGE =
  "refused by the sandbox: only the session's directory (and the additional directories the editor gave it), /tmp and tools.writable are writable; write inside the project, or ask the user to add the directory to tools.writable";

type Access = "read" | "write";

const decide = async (boundary: FileBoundary, path: string, access: Access): Promise<Result<string, FsError>> => {
  const cwd = boundary.cwd();
  const roots = cwd === undefined ? [] : (boundary.roots?.() ?? []);
  const view: SandboxView = {
    cwd: cwd ?? boundary.privateTmp,
    writable: [...boundary.settings.writable, ...roots],
    home: boundary.settings.home,
    privateTmp: boundary.privateTmp,
  };
  const [resolved, hidden] = await Promise.all([
    resolveInView(view, path),
    Promise.all([...new Set([view.cwd, ...roots].flatMap((dir) => hiddenPathsFor(boundary.settings, dir)))].map(realPathOf)),
  ]);
  if (resolved.kind === "loop") return err({ kind: "io", path, message: "too many levels of symbolic links" });
  if (resolved.kind === "dangling") {
    return access === "write"
      ? err({ kind: "io", path, message: `${DANGLING_LINK_MESSAGE} (it points to ${resolved.target})` })
      : err({ kind: "not-found", path });
  }
  const real = resolved.host;
  if (hidden.some((root) => isWithin(real, root))) return err({ kind: "io", path, message: HIDDEN_MESSAGE });
  if (access === "write") {
    const writable = await Promise.all([...(cwd === undefined ? [] : [cwd]), ...roots, ...boundary.settings.writable, boundary.privateTmp].map(realPathOf));
    if (!writable.some((root) => isWithin(real, root))) return err({ kind: "io", path, message: OUTSIDE_MESSAGE });
    const guarded = await Promise.all([view.cwd, ...roots].flatMap((dir) => readOnlyPathsFor(boundary.settings, dir)).map(realPathOf));
    if (guarded.some((root) => isWithin(real, root))) return err({ kind: "io", path, message: READ_ONLY_MESSAGE });
  }
  return ok(real);
};

const checked = <T>(boundary: FileBoundary, path: string, access: Access, then: (host: string) => ResultAsync<T, FsError>): ResultAsync<T, FsError> =>
  new ResultAsync(decide(boundary, path, access)).andThen(then);

/** `inner` confined to the sandbox's boundary for one session; refusals are `io` errors whose message says why and what to do. */
export const sandboxedFileSystem = (inner: FileSystem, boundary: FileBoundary): FileSystem => {
  const readBytes = inner.readBytes;
  return {
    readText: (path) => checked(boundary, path, "read", (host) => inner.readText(host)),
    writeText: (path, text) => checked(boundary, path, "write", (host) => inner.writeText(host, text)),
    stat: (path) => checked(boundary, path, "read", (host) => inner.stat(host)),
    // Where a write lands, as it is decided (and refused) here.
    realPath: (path) => checked(boundary, path, "write", (host) => okAsync(host)),
    // Images for a model that reads them (`model.vision`), within the same boundary.
    ...(readBytes !== undefined ? { readBytes: (path: string) => checked(boundary, path, "read", (host) => readBytes(host)) } : {}),
  };
};
