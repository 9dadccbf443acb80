// Builds mm-acp with esbuild (build-options.mjs): dist/mm-acp.js, an ES module holding src/main.ts and
// what start-up needs (the workspace packages from their TypeScript sources, the ACP SDK, zod), and
// dist/chunks/ with what is imported on first use (the AI SDK on the first model step, undici behind a
// proxy, the MCP client for a session's MCP servers); dist/THIRD-PARTY-NOTICES.txt holds the licences
// of the npm packages bundled. `node bin/mm-acp.js` is what editors spawn. Each file is written through
// a temporary file and a rename, the chunks (named by content) before the entry that imports them.
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { bundleOptions, REPO_ROOT } from "./build-options.mjs";
import { thirdPartyNotices } from "./third-party-notices.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
const chunks = join(dist, "chunks");

const replaceFile = (path, text) => {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
};

const result = await build(bundleOptions(join(here, "src/main.ts"), dist, "mm-acp"));
mkdirSync(chunks, { recursive: true });
// The shell grammar the permission rules parse commands with (tree-sitter-bash on web-tree-sitter,
// @mm/node's shell-syntax/): two WebAssembly files, read beside the code that loads them.
const fromNode = createRequire(join(REPO_ROOT, "packages/node/package.json"));
const wasmFiles = ["web-tree-sitter/web-tree-sitter.wasm", "tree-sitter-bash/tree-sitter-bash.wasm"].map((name) => realpathSync(fromNode.resolve(name)));
for (const file of wasmFiles) replaceFile(join(chunks, basename(file)), readFileSync(file));
const entry = join(dist, "mm-acp.js");
for (const file of result.outputFiles) if (file.path !== entry) replaceFile(file.path, file.text);
for (const file of result.outputFiles) if (file.path === entry) replaceFile(file.path, file.text);
const wasmInputs = { inputs: Object.fromEntries(wasmFiles.map((file) => [relative(REPO_ROOT, file), {}])) };
replaceFile(join(dist, "THIRD-PARTY-NOTICES.txt"), thirdPartyNotices([result.metafile, wasmInputs], REPO_ROOT));

// Chunks of earlier builds, and what earlier versions of this script wrote.
const written = new Set([...result.outputFiles.map((file) => file.path), ...wasmFiles.map((file) => join(chunks, basename(file)))]);
for (const name of readdirSync(chunks)) if (!written.has(join(chunks, name))) rmSync(join(chunks, name), { force: true });
for (const name of readdirSync(dist)) {
  if (!["mm-acp.js", "chunks", "THIRD-PARTY-NOTICES.txt"].includes(name)) rmSync(join(dist, name), { recursive: true, force: true });
}
