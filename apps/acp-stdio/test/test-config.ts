/** The defaults of the configuration as a value, for tests. */
import type { MmConfig } from "../src/config/index.js";

export const testConfig = (): MmConfig => ({
  model: {
    name: "test-model",
    baseURL: "http://127.0.0.1:9/v1",
    apiKeyEnv: "OPENAI_API_KEY",
    apiKey: undefined,
    api: "chat",
    provider: "auto",
    contextWindow: 128_000,
    choices: [],
    vision: false,
    reasoningTag: "think",
  },
  sessions: { enabled: false, dir: ".mm/sessions" },
  context: { threshold: 102_400, keepLastTurns: 2 },
  skills: { dirs: [] },
  tools: {
    bashTimeoutSeconds: 120,
    maxOutputBytes: 30_000,
    maxImageBytes: 5_242_880,
    maxSessionImageBytes: 20_971_520,
    sandbox: "off",
    writable: [],
    network: false,
    hidden: [],
    hiddenEnv: [],
  },
  turn: { maxSteps: 100 },
  loop: { repeats: 3 },
  acp: { surface: "spec" },
  permissions: { allow: [], ask: [], deny: [] },
});
