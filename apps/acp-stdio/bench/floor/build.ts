/**
 * Builds the floor agent (floor-agent.ts) the way build.mjs builds mm (build-options.mjs). Returns the
 * command that starts it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
// @ts-expect-error: a plain ES module of the build, without type declarations
import { bundleOptions } from "../../build-options.mjs";
import type { Command } from "../lib/agent.js";

const HERE = dirname(fileURLToPath(import.meta.url));

/** Writes the floor agent's bundle and launcher under `dir`. */
export const buildFloorAgent = async (dir: string): Promise<Command> => {
  mkdirSync(dir, { recursive: true });
  await build({ ...bundleOptions(join(HERE, "floor-agent.ts"), dir, "floor-agent"), write: true, metafile: false });
  const launcher = join(dir, "floor-agent.mjs");
  writeFileSync(launcher, `import { start } from ${JSON.stringify(join(dir, "floor-agent.js"))};\nstart();\n`);
  const flags = (process.env.MM_BENCH_NODE_FLAGS ?? "").split(" ").filter((f) => f !== "");
  return { file: process.execPath, args: [...flags, launcher] };
};
