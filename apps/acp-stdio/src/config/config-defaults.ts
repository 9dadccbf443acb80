/**
 * The values mm uses when neither the config file nor the environment sets them. The compaction
 * threshold has none of its own: it is 80% of whatever context window ends up configured.
 */
import type { MmConfig } from "./config-types.js";

/** Default model settings (the key itself has no default). */
export const DEFAULT_MODEL = {
  name: "gpt-4.1-mini",
  baseURL: "https://api.openai.com/v1",
  apiKeyEnv: "OPENAI_API_KEY",
  api: "chat",
  provider: "auto",
  contextWindow: 128_000,
  choices: [],
  vision: false,
  reasoningTag: "think",
} as const satisfies Omit<MmConfig["model"], "apiKey">;

/** Share of the context window at which compaction starts when `context.threshold` is unset. */
export const DEFAULT_THRESHOLD_RATIO = 0.8;

/** Default skill folders, before `~` and relative paths are resolved. */
export const DEFAULT_SKILL_DIRS: readonly string[] = ["~/.agents/skills", "~/.mm/skills", ".agents/skills", ".mm/skills"];

/** Defaults of the sections that depend on nothing else. */
export const DEFAULTS = {
  sessions: { enabled: false, dir: ".mm/sessions" },
  context: { keepLastTurns: 2 },
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
} as const;
