// An esbuild plugin for the start-up bundle: fp-ts's ES module build (`fp-ts/es6/…`) where the code
// imports its CommonJS one (`fp-ts/lib/…`, as @mm/core does for Node's own resolution).
//
// The two are the same compiled sources, in two module formats. The CommonJS files are bundled as
// wrapped modules, each evaluated whole at start-up with everything it requires (about 98 kB of fp-ts
// in the bundle); the ES modules are scope-hoisted and, fp-ts declaring `"sideEffects": false`,
// tree-shaken to the few functions used.

export const fpTsEsModules = {
  name: "fp-ts-es-modules",
  setup(build) {
    build.onResolve({ filter: /^fp-ts\/lib\// }, (args) =>
      build.resolve(args.path.replace(/^fp-ts\/lib\//, "fp-ts/es6/"), { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer }),
    );
  },
};
