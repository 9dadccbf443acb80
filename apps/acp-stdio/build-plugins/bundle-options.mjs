// The esbuild options mm-acp's bundles are built with (build.mjs), shared with the benchmark's floor
// agent (bench/floor/build.ts) so both are bundled the same way.

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const commonOptions = {
  bundle: true,
  // The workspace packages are bundled from their TypeScript sources (their `mm-source` export condition).
  conditions: ["mm-source"],
  platform: "node",
  target: "node20",
  format: "cjs",
  // Names kept: a stack trace from the bundle still names its functions. Whitespace minified: a smaller
  // file is read and compiled faster (about 6 ms of start-up, 493 → 380 KB); lines are not kept.
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: "none",
  logLevel: "warning",
  write: false,
  // Paths in the output (module comments, CommonJS wrapper keys) relative to the repository, whatever
  // the cwd: `node build.mjs` from the root and `pnpm pack` in apps/acp-stdio make the same files.
  absWorkingDir: join(dirname(fileURLToPath(import.meta.url)), "../../.."),
};

/** For the start-up bundle: packages' ES module builds first (neverthrow), scope-hoisted rather than wrapped. */
export const startupOptions = { mainFields: ["module", "main"] };
