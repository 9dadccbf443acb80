/** Process-wide FIFO serialisation of turns: one runs at a time, a cancelled queued one never starts. */

/** Runs jobs one at a time, first in first out. */
export type TurnQueue = {
  /**
   * Runs `job` once every earlier job has settled. When `signal` aborts while the job waits,
   * `onCancelledWhileQueued` answers at once and `job` never runs.
   */
  readonly run: <T>(signal: AbortSignal, job: () => Promise<T>, onCancelledWhileQueued: () => T) => Promise<T>;
  /** Settles once every job queued so far has settled. */
  readonly idle: () => Promise<void>;
};

/** An empty queue. */
export const createTurnQueue = (): TurnQueue => {
  let tail: Promise<void> = Promise.resolve();
  const run = <T>(signal: AbortSignal, job: () => Promise<T>, onCancelledWhileQueued: () => T): Promise<T> => {
    const previous = tail;
    let answered = false;
    let answer!: (value: T | PromiseLike<T>) => void;
    let fail!: (reason: unknown) => void;
    const result = new Promise<T>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
    const abandon = () => {
      if (answered) return;
      answered = true;
      answer(onCancelledWhileQueued());
    };
    signal.addEventListener("abort", abandon, { once: true });
    if (signal.aborted) abandon();
    const ran = previous.then(async () => {
      signal.removeEventListener("abort", abandon);
      if (answered) return;
      answered = true;
      try {
        answer(await job());
      } catch (error) {
        fail(error);
      }
    });
    tail = ran.catch(() => undefined);
    return result;
  };
  return { run, idle: () => tail };
};
