/**
 * What both change trackers share: the state kept per cwd between calls (a private index or a scan,
 * with its watches), the least recently used closed beyond a few cwds; and the snapshot whose
 * `finish` runs once.
 */
import { err, ResultAsync, type Result } from "neverthrow";
import type { ChangeSnapshot, ChangeTrackingError, FileDiff, KeptFile } from "@mm/core";
import { takeBeforeStates } from "./file-diffs.js";

/** Cwds whose state and watches are kept; the least recently used beyond this is dropped. */
const KEPT_CWDS = 4;

const failed = (reason: string): ChangeTrackingError => ({ kind: "failed", reason });

/** The state kept per cwd, at most {@link KEPT_CWDS} of them. */
export const keptPerCwd = <K extends { readonly close: () => void }>() => {
  const kept = new Map<string, K>();

  /** Closes and drops what is kept for `cwd`. */
  const forget = (cwd: string): void => {
    kept.get(cwd)?.close();
    kept.delete(cwd);
  };

  /** What is kept for `cwd` when `reuse` accepts it, else a new one from `make` (the old one closed); now the most recently used. */
  const get = (cwd: string, make: () => K, reuse: (known: K) => boolean = () => true): K => {
    const known = kept.get(cwd);
    kept.delete(cwd);
    const value = known !== undefined && reuse(known) ? known : (known?.close(), make());
    kept.set(cwd, value);
    for (const [old, state] of kept) {
      if (kept.size <= KEPT_CWDS) break;
      state.close();
      kept.delete(old);
    }
    return value;
  };

  return { get, forget };
};

/**
 * A snapshot whose `finish` gives `changesSince()` once (a second call fails); on a failure,
 * `onFailure` runs (the trackers forget the cwd) and the failure reads as `reasonOf` says.
 */
export const snapshotFinishingOnce = <E>(
  changesSince: () => Promise<Result<readonly FileDiff[], E>>,
  onFailure: () => void,
  reasonOf: (failure: E) => string,
): ChangeSnapshot => {
  let finished = false;
  let before: ReadonlyMap<string, KeptFile | null> = new Map();
  const finish = async (): Promise<Result<readonly FileDiff[], ChangeTrackingError>> => {
    if (finished) return err(failed("this snapshot is already finished"));
    finished = true;
    const diffs = await changesSince();
    if (diffs.isErr()) onFailure();
    else before = takeBeforeStates(diffs.value);
    return diffs.mapErr((failure) => failed(reasonOf(failure)));
  };
  return {
    finish: () => new ResultAsync(finish().catch((error: unknown) => err(failed(String(error))))),
    // The bytes (and mode) the compare read of a reported path's state before (binary too), for /undo.
    before: (path) => before.get(path),
  };
};
