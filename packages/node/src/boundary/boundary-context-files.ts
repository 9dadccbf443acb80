/**
 * The ContextFiles port on the host's boundary: what mm reads on its own for the model (a cwd's
 * AGENTS.md) goes through {@link confinedReadText}, confined to the directory it belongs to, never a
 * hidden path (the built-in credentials, `tools.hidden`, mm's own state), with the sandbox on or off;
 * with it on, links are followed as a sandboxed command would follow them (its private /tmp).
 */
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

/** The ContextFiles port on the local disk, through the boundary. */
export const boundaryContextFiles = (boundary: ReadBoundary): ContextFiles => ({
  read: (root, path) =>
    confinedReadText({
      root,
      path,
      hidden: hiddenFor(boundary, root),
      ...(boundary.sandbox !== undefined
        ? { view: { cwd: root, writable: boundary.sandbox.writable, home: boundary.home, privateTmp: boundary.sandbox.privateTmp } }
        : {}),
    }),
});
