/**
 * The upper bound of every limit a config file sets (docs/configuration.md lists them): far above any
 * real use, and below what would take the agent's memory or timers past what it can hold.
 */
export const LIMIT_MAX = {
  /** Tokens: above the largest windows served (10 M). */
  contextWindow: 10_000_000,
  /** Tokens, like the window. */
  threshold: 10_000_000,
  keepLastTurns: 100,
  /** A day. */
  bashTimeoutSeconds: 86_400,
  /** 10 MB of one tool's output kept: already far more than any context window holds. */
  maxOutputBytes: 10_000_000,
  maxSteps: 10_000,
  repeats: 100,
} as const;
