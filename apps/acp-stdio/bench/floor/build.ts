/**
 * Builds the floor agent (floor-agent.ts) the way build.mjs builds mm: one CommonJS bundle by esbuild
 * with the same options and the SDK's schemas built on first use, V8's code cache made by loading it
 * once, and a launcher that loads both with mm's own bin/load-bundle.cjs. Returns the command that
 * starts it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
// @ts-expect-error: plain ES modules of the build, without type declarations
import { commonOptions, startupOptions } from "../../build-plugins/bundle-options.mjs";
// @ts-expect-error: plain ES modules of the build, without type declarations
import { lazySchemas } from "../../build-plugins/lazy-schemas.mjs";
import type { Command } from "../lib/agent.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const LOAD_BUNDLE = join(HERE, "../../bin/load-bundle.cjs");

/** Writes the floor agent's bundle, code cache and launcher under `dir`. */
export const buildFloorAgent = async (dir: string): Promise<Command> => {
  mkdirSync(dir, { recursive: true });
  const bundle = join(dir, "floor-agent.bundle.cjs");
  const cache = join(dir, "floor-agent.cache");
  const launcher = join(dir, "floor-agent.cjs");
  await build({ ...commonOptions, ...startupOptions, write: true, entryPoints: [join(HERE, "floor-agent.ts")], outfile: bundle, plugins: [lazySchemas] });
  execFileSync(process.execPath, ["-e", "require(process.argv[1]).writeCodeCache(process.argv[2], process.argv[3])", LOAD_BUNDLE, bundle, cache], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  writeFileSync(launcher, `"use strict";\nrequire(${JSON.stringify(LOAD_BUNDLE)}).loadFile(${JSON.stringify(bundle)}, ${JSON.stringify(cache)}).start();\n`);
  const flags = (process.env.MM_BENCH_NODE_FLAGS ?? "").split(" ").filter((f) => f !== "");
  return { file: process.execPath, args: [...flags, launcher] };
};
