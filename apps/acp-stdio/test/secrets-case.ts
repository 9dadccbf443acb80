/**
 * The shared setup of the secrets-redaction e2e files: one case's directory (the user's home and the
 * project in it, temp dirs that `removeTempDirs` takes away) and the agent spawned there with the
 * model's key `key`, sessions on and the settings `keys`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { tempDir } from "./faults/helpers.js";
import { spawnAgent, type SpawnedAgent } from "./spawned-agent.js";

export type SecretsCase = { dir: string; home: string; cwd: string };

export const secretsCase = (name: string): SecretsCase => {
  const dir = tempDir(name);
  const home = join(dir, "home");
  const cwd = join(dir, "project");
  mkdirSync(home);
  mkdirSync(cwd);
  return { dir, home, cwd };
};

export const spawnWithKey = (
  { dir, home, cwd }: SecretsCase,
  settings: { baseUrl: string; key: string; keys: Record<string, unknown>; env?: Record<string, string>; clientCapabilities?: acp.ClientCapabilities },
): SpawnedAgent => {
  const config = join(dir, "mm-config.json");
  writeFileSync(config, JSON.stringify({ sessions: { enabled: true }, ...settings.keys }));
  return spawnAgent({
    env: { MM_BASE_URL: settings.baseUrl, OPENAI_API_KEY: settings.key, MM_MODEL: "fake-model", HOME: home, ...settings.env },
    cwd,
    args: ["--config", config],
    clientCapabilities: settings.clientCapabilities ?? {},
  });
};
