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

/**
 * Turns serialised per key: the jobs of one key run one at a time, first in first out, as in a
 * {@link TurnQueue}; jobs of different keys overlap. With `perKey` false every key shares one queue
 * (the spec surface's process-wide serialisation).
 */
export type TurnQueues = {
  /** Runs `job` in `key`'s queue (see {@link TurnQueue.run}). */
  readonly run: <T>(key: string, signal: AbortSignal, job: () => Promise<T>, onCancelledWhileQueued: () => T) => Promise<T>;
  /** Settles once every job queued so far settled: in `key`'s queue, or in every queue when absent. */
  readonly idle: (key?: string) => Promise<void>;
};

/** Empty queues: one per key when `perKey`, else one for all. */
export const createTurnQueues = (perKey: boolean): TurnQueues => {
  const queues = new Map<string, { readonly queue: TurnQueue; jobs: number }>();
  const keyOf = (key: string): string => (perKey ? key : "");
  const run = <T>(key: string, signal: AbortSignal, job: () => Promise<T>, onCancelledWhileQueued: () => T): Promise<T> => {
    const k = keyOf(key);
    const entry = queues.get(k) ?? { queue: createTurnQueue(), jobs: 0 };
    queues.set(k, entry);
    entry.jobs += 1;
    const result = entry.queue.run(signal, job, onCancelledWhileQueued);
    // A queue with nothing left waiting is dropped once it settles: a key per session, never kept past its turns.
    void entry.queue.idle().then(() => {
      entry.jobs -= 1;
      if (entry.jobs === 0 && queues.get(k) === entry) queues.delete(k);
    });
    return result;
  };
  const idle = async (key?: string): Promise<void> => {
    if (key !== undefined) return queues.get(keyOf(key))?.queue.idle();
    await Promise.all([...queues.values()].map((entry) => entry.queue.idle()));
  };
  return { run, idle };
};
