/**
 * One holder at a time per place on disk: what runs tools of sessions side by side. A place is an
 * absolute directory; two places overlap when they are the same or one is inside the other (a change
 * tracker of the outer one sees the inner one's files). Holders of overlapping places run one after
 * the other, first come first served; holders of disjoint places run at once.
 */

/** The lock (see the module comment). */
export type PlaceLock = {
  /** Runs `job` once every earlier holder of a place overlapping one of `places` has finished. */
  readonly hold: <T>(places: readonly string[], job: () => Promise<T>) => Promise<T>;
};

const within = (inner: string, outer: string): boolean => {
  if (inner === outer) return true;
  const prefix = outer.endsWith("/") ? outer : `${outer}/`;
  return inner.startsWith(prefix);
};

/** Whether two sets of places share a file (one place equal to or inside another). */
export const placesOverlap = (a: readonly string[], b: readonly string[]): boolean => a.some((x) => b.some((y) => within(x, y) || within(y, x)));

/** A lock nobody holds. */
export const createPlaceLock = (): PlaceLock => {
  const holders: { readonly places: readonly string[]; readonly done: Promise<void> }[] = [];
  const hold = async <T>(places: readonly string[], job: () => Promise<T>): Promise<T> => {
    const before = holders.filter((h) => placesOverlap(h.places, places)).map((h) => h.done);
    let release!: () => void;
    const entry = { places, done: new Promise<void>((resolve) => (release = resolve)) };
    holders.push(entry);
    try {
      await Promise.all(before);
      return await job();
    } finally {
      holders.splice(holders.indexOf(entry), 1);
      release();
    }
  };
  return { hold };
};
