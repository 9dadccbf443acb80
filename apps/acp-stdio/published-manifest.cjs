"use strict";
/**
 * The package.json that `pnpm pack` publishes for mm-acp (the root .pnpmfile.cjs's `beforePacking`
 * hook): without what only building it needs (`devDependencies`, `scripts`).
 */
exports.publishedManifest = (pkg) => {
  const { devDependencies: _dev, scripts: _scripts, ...published } = pkg;
  return published;
};
