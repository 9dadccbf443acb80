/**
 * The ChangeTracker port: what a shell command did to the files under its cwd. The caller takes a
 * snapshot before the command and finishes it after, whatever the command's outcome, and gets the
 * files created, changed or deleted as FileDiffs.
 */
import type { ResultAsync } from "neverthrow";
import type { FileDiff } from "../history/message.js";

/**
 * Why no diffs: `unavailable` from `begin` (the cwd can't be watched within the budget, or at all:
 * told once on stderr by the caller, which goes on without diffs; an adapter answers it again at
 * once for the same cwd rather than paying the cost on every call); `failed` from `finish` (the
 * after-state could not be read, e.g. the command removed the repository).
 */
export type ChangeTrackingError = { readonly kind: "unavailable"; readonly reason: string } | { readonly kind: "failed"; readonly reason: string };

/** The state before a command, to compare with after it. */
export type ChangeSnapshot = {
  /**
   * The files created, changed or deleted under the cwd since `begin`, sorted by path: `path`
   * absolute (under the cwd as given to `begin`), `oldText` null for a creation, `newText` null for a
   * deletion. A binary file, a file over the adapter's size limit, a symbolic link or a submodule is
   * named with a `note` saying what happened, its texts null. A file whose content ended as it began
   * is not reported. Call it exactly once: it releases what `begin` held. Never throws.
   */
  readonly finish: () => ResultAsync<readonly FileDiff[], ChangeTrackingError>;
  /**
   * Once `finish` answered: what a path it reported held at `begin`, when the adapter kept it (its
   * bytes, binary included, and its permission bits when it saw them; null when it did not exist);
   * undefined when it did not (a file over its size limit, a link). Absent when the adapter keeps nothing.
   */
  readonly before?: (path: string) => KeptFile | null | undefined;
  /**
   * Whether a path is hidden (the sandbox's hidden set): the adapter never read it, and nobody may
   * (a reported one is named only, with a note). Absent when nothing is hidden.
   */
  readonly hidden?: (path: string) => boolean;
};

/** A file's bytes as kept before a change, and its permission bits (`0o755`) when they were seen. */
export type KeptFile = { readonly bytes: Uint8Array; readonly mode?: number };

/** The ChangeTracker port. */
export type ChangeTracker = {
  /** Snapshots the files under `cwd` (absolute) before a command. Never throws. */
  readonly begin: (cwd: string) => ResultAsync<ChangeSnapshot, ChangeTrackingError>;
};

/** One line for stderr or a log. */
export const describeChangeTrackingError = (error: ChangeTrackingError): string =>
  error.kind === "unavailable" ? `file changes not tracked: ${error.reason}` : `file changes not read: ${error.reason}`;
