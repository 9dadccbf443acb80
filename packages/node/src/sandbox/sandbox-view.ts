/**
 * The file system as a sandboxed command sees it: the host's, read-only, except the session's cwd
 * and the writable directories at their own paths, and a private directory mounted as /tmp. Pure
 * path arithmetic, shared by the bubblewrap arguments and the file tools' boundary.
 */
import { posix } from "node:path";

/** Where the sandbox mounts its private directory. */
export const SANDBOX_TMP = "/tmp";

/** The mounts that decide what a path means inside the sandbox. */
export type SandboxView = {
  readonly cwd: string;
  /** Writable directories besides the cwd; absolute. */
  readonly writable: readonly string[];
  /** The home directory: shown read-only even when it lives under /tmp. */
  readonly home: string;
  /** The host directory seen as /tmp inside. */
  readonly privateTmp: string;
};

/** True when `path` is `root` or below it (both absolute and normalised). */
export const isWithin = (path: string, root: string): boolean => path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);

/**
 * The directories that show through the private /tmp at their own path: those at or under /tmp among
 * the home, the cwd and the writable ones (a session opened in /tmp itself gets the real one).
 */
export const boundUnderTmp = (view: SandboxView): readonly string[] => [view.home, view.cwd, ...view.writable].filter((dir) => isWithin(dir, SANDBOX_TMP));

/**
 * The host path of what a sandboxed command finds at `path` (absolute): itself, except under /tmp,
 * which is the private directory unless a bound directory covers it.
 */
export const hostPathOf = (view: SandboxView, path: string): string => {
  const normal = posix.normalize(path);
  if (!isWithin(normal, SANDBOX_TMP)) return normal;
  if (boundUnderTmp(view).some((dir) => isWithin(normal, dir))) return normal;
  return posix.join(view.privateTmp, normal.slice(SANDBOX_TMP.length));
};
