/** The session store's failures as StoreError values, whatever a step throws. */
import { err, ResultAsync, type Result } from "neverthrow";
import type { StoreError } from "@mm/core";
import { reasonOf } from "../errno.js";

/** A failure to read or write the session's files, in one line. */
export const io = (id: string, message: string): StoreError => ({ kind: "io", id, message });

/** Failures of unexpected kinds (never expected from the store's steps) still end as an `io` value. */
export const settled = <T>(id: string, promise: Promise<Result<T, StoreError>>): ResultAsync<T, StoreError> =>
  new ResultAsync(promise.catch((error: unknown) => err(io(id, `session store failed: ${reasonOf(error)}`))));
