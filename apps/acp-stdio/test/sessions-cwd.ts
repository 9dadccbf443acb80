/**
 * A project of its own with sessions on, and the built agent spawned in it: the shared setup of the
 * e2e files that test one surface against the other (the user's config and state dirs under the cwd).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnAgent, type SpawnedAgent } from "./spawned-agent.js";

/** A fresh temp cwd holding an `mm.json` with sessions on; the caller removes it. */
export const sessionsCwd = (name: string): string => {
  const cwd = mkdtempSync(join(tmpdir(), `mm-${name}-`));
  writeFileSync(join(cwd, "mm.json"), JSON.stringify({ sessions: { enabled: true } }));
  return cwd;
};

/** The agent in `cwd` (made by `sessionsCwd`) on `surface`, talking to the fake server at `baseUrl`. */
export const spawnInSessionsCwd = (cwd: string, baseUrl: string, surface: "spec" | "full", model = "m"): SpawnedAgent =>
  spawnAgent({
    cwd,
    args: ["--config", join(cwd, "mm.json")],
    env: { MM_BASE_URL: baseUrl, OPENAI_API_KEY: "sk-x", MM_MODEL: model, MM_ACP_SURFACE: surface, XDG_CONFIG_HOME: cwd, XDG_STATE_HOME: join(cwd, "state") },
  });
