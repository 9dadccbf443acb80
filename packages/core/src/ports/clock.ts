/** Small ports for time and randomness, so the core stays deterministic under test. */

/** The Clock port: wall-clock time. */
export type Clock = {
  /** Milliseconds since the epoch. */
  readonly now: () => number;
};

/** The RandomHex port: random digits for session ids. */
export type RandomHex = {
  /** `n` random lowercase hex digits. */
  readonly hex: (n: number) => string;
};
