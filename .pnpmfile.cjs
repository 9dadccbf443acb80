// pnpm hooks. beforePacking: the package.json mm-acp is published with (see apps/acp-stdio/published-manifest.cjs).
module.exports = {
  hooks: {
    beforePacking: (pkg) => (pkg.name === "mm-acp" ? require("./apps/acp-stdio/published-manifest.cjs").publishedManifest(pkg) : pkg),
  },
};
