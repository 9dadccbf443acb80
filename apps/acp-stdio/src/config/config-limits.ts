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
  /** 50 MiB of images in one tool result: more than any model API takes in one request. */
  maxImageBytes: 52_428_800,
  /** 200 MiB of images in a session: its file stays far below what can be written as one JSON text (docs/session-file.md). */
  maxSessionImageBytes: 209_715_200,
  maxSteps: 10_000,
  /** US dollars per million tokens (`model.pricing`): a hundred times the dearest model served. */
  price: 10_000,
  repeats: 100,
  /** Entries of any list (directories, hidden paths and variables, model choices, trusted projects, rules). */
  listEntries: 1_000,
} as const;
