// pnpm hooks. beforePacking: the published mm-acp is one bundle with no dependencies to install, so its
// packed package.json drops what only building it needs (the workspace's devDependencies and scripts).
module.exports = {
  hooks: {
    beforePacking(pkg) {
      if (pkg.name !== "mm-acp") return pkg;
      const { devDependencies: _dev, scripts: _scripts, ...published } = pkg;
      return published;
    },
  },
};
