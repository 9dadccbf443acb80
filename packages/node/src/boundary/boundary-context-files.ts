/**
 * The ContextFiles port on the host's boundary: what mm reads on its own for the model (the AGENTS.md
 * files from a cwd's repository root down to it) goes through {@link confinedReadText}, each file
 * confined to the directory it belongs to, never a hidden path (the built-in credentials,
 * `tools.hidden` relative to the session's cwd, mm's own state), with the sandbox on or off; with it
 * on, links are followed as a sandboxed command would follow them (its private /tmp). The repository
 * root is the nearest directory holding a `.git` that is no link, found by `lstat` up the cwd's path.
 */
import { lstat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { ContextFiles } from "@mm/core";
import { hiddenPathsFor } from "../sandbox/sandbox-settings.js";
import { confinedReadText } from "./confined-read.js";

/** What the boundary hides and how the sandbox sees the disk. */
export type ReadBoundary = {
  /** The home directory (`~` in hidden paths). */
  readonly home: string;
  /** `tools.hidden` (and anything else mm hides): absolute, `~/…`, or relative to the root. */
  readonly hidden: readonly string[];
  /** With the sandbox on: the host directory its commands see as /tmp, and `tools.writable`. */
  readonly sandbox?: { readonly privateTmp: string; readonly writable: readonly string[] } | undefined;
};

/** The hidden paths of a read in `root`: the built-in ones and `boundary.hidden`, absolute. */
export const hiddenFor = (boundary: ReadBoundary, root: string): readonly string[] =>
  hiddenPathsFor({ home: boundary.home, hidden: boundary.hidden, writable: [], network: false }, root);

/**
 * The nearest of `cwd` and its ancestors (as written: the path is not resolved) holding a `.git` that
 * is a directory or a file (a worktree's); a `.git` that is a link is not followed and does not count.
 */
export const repositoryRootOf = async (cwd: string): Promise<string | undefined> => {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const info = await lstat(join(dir, ".git")).catch(() => undefined);
    if (info !== undefined && (info.isDirectory() || info.isFile())) return dir;
    if (dirname(dir) === dir) return undefined;
  }
};

/** The ContextFiles port on the local disk, through the boundary. */
export const boundaryContextFiles = (boundary: ReadBoundary): ContextFiles => ({
  repositoryRoot: repositoryRootOf,
  read: (root, path, cwd) =>
    confinedReadText({
      root,
      path,
      hidden: [...new Set([...hiddenFor(boundary, root), ...(cwd !== undefined ? hiddenFor(boundary, cwd) : [])])],
      ...(boundary.sandbox !== undefined
        ? { view: { cwd: root, writable: boundary.sandbox.writable, home: boundary.home, privateTmp: boundary.sandbox.privateTmp } }
        : {}),
    }),
});
