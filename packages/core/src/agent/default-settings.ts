/** The settings an agent runs with unless told otherwise: mm's documented defaults. */
import type { AgentSettings } from "./agent-state.js";

/** 100 steps a turn, 3 repeats, 120 s commands, 30,000 bytes of output, a 128,000-token window compacted at 80 %, 2 turns kept. */
export const DEFAULT_AGENT_SETTINGS: AgentSettings = {
  maxSteps: 100,
  loopRepeats: 3,
  limits: { bashTimeoutMs: 120_000, maxOutputBytes: 30_000 },
  contextWindow: 128_000,
  compactThreshold: 102_400,
  keepLastTurns: 2,
  os: "unknown",
};
