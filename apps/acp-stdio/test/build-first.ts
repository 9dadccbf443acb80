/**
 * vitest global setup of the acp-stdio project: builds the bundle before any test spawns
 * `bin/mm-acp.js`, so no test ever runs a bundle older than the sources (about a second).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL("../build.mjs", import.meta.url))], { stdio: ["ignore", "ignore", "inherit"] });
}
