/** Small ports for time and randomness, so the core stays deterministic under test. */

export type Clock = {
  /** Milliseconds since the epoch. */
  readonly now: () => number;
};

export type RandomHex = {
  /** `n` random lowercase hex digits. */
  readonly hex: (n: number) => string;
};
