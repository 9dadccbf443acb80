/** Small pieces the kept index, the kept scan and the tree walkers share. */
import { lstatSync, type Stats } from "node:fs";

/** The path's `lstat`, or undefined when there is nothing there (or it cannot be read). */
export const lstatOrUndefined = (path: string): Stats | undefined => {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
};

/** Runs each piece of work after the previous one settled, whatever its outcome. */
export const serialQueue = () => {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };
};

/** Resolves on the next event-loop turn (long walks yield so the agent keeps serving). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
