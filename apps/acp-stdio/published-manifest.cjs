"use strict";
/**
 * The package.json that `pnpm pack` publishes for mm-acp (the root .pnpmfile.cjs's `beforePacking`
 * hook, called after `prepack` has built): without what only building it needs (`devDependencies`,
 * `scripts`), its `files` naming the current build's bundle, code cache and provider file by name, so
 * older builds' files, kept a day in dist/cjs for agents still running from them, stay out of the tarball.
 */
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

exports.publishedManifest = (pkg) => {
  const { devDependencies: _dev, scripts: _scripts, ...published } = pkg;
  const build = JSON.parse(readFileSync(join(__dirname, "dist", "mm-acp.json"), "utf8"));
  const current = [build.front, build.frontCache, build.bundle, build.cache, build.provider, build.providerCache, build.mcpClient].filter(Boolean).map((file) => `dist/${file}`);
  return { ...published, files: published.files.flatMap((entry) => (entry === "dist/cjs/" ? current : [entry])) };
};
