// The esbuild options mm-acp is bundled with (build.mjs), shared with the benchmark's floor agent
// (bench/floor/build.ts) so both are bundled the same way: one ES module build, the modules imported
// with `await import()` split into chunks loaded when first imported.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root: paths in the output are relative to it, whatever the cwd. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** Options for bundling `entry` into `outdir` (`outdir/<name>.js` and `outdir/chunks/`). */
export const bundleOptions = (entry, outdir, name) => ({
  entryPoints: [entry],
  bundle: true,
  // The workspace packages are bundled from their TypeScript sources (their `mm-source` export condition).
  conditions: ["mm-source"],
  platform: "node",
  target: "node20",
  format: "esm",
  splitting: true,
  outdir,
  entryNames: name,
  chunkNames: "chunks/[name]-[hash]",
  // CommonJS dependencies bundled into an ES module still call `require` (for Node's built-ins).
  banner: { js: 'import { createRequire as __mmCreateRequire } from "node:module"; const require = __mmCreateRequire(import.meta.url);' },
  // `MM_BUILD_READABLE=1 node build.mjs` keeps names and whitespace, for a CPU profile one can read.
  minify: process.env.MM_BUILD_READABLE !== "1",
  legalComments: "none",
  logLevel: "warning",
  write: false,
  metafile: true,
  absWorkingDir: REPO_ROOT,
});
