/** The defaults of the configuration as a value, for tests (a test model, no skill folders). */
import { DEFAULT_MODEL, DEFAULT_THRESHOLD_RATIO, DEFAULTS } from "../src/config/config-defaults.js";
import type { MmConfig } from "../src/config/index.js";

export const testConfig = (): MmConfig => ({
  model: { ...DEFAULT_MODEL, name: "test-model", baseURL: "http://127.0.0.1:9/v1", apiKey: undefined, choices: [] },
  sessions: { ...DEFAULTS.sessions },
  context: { threshold: Math.floor(DEFAULT_MODEL.contextWindow * DEFAULT_THRESHOLD_RATIO), ...DEFAULTS.context },
  skills: { dirs: [] },
  tools: { ...DEFAULTS.tools, writable: [], hidden: [], hiddenEnv: [] },
  turn: { ...DEFAULTS.turn },
  loop: { ...DEFAULTS.loop },
  acp: { ...DEFAULTS.acp },
  permissions: { allow: [], ask: [], deny: [] },
});
