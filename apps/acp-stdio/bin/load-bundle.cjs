"use strict";
/**
 * Loads mm-acp's CommonJS bundle (dist/mm-acp.json names the current one) with V8's code cache made by
 * the build, so what start-up runs is neither parsed nor compiled again. V8 validates the cache (its
 * version and flags, the source) and ignores one that does not fit: the bundle is then compiled as
 * usual. Used by bin/mm-acp.js, by build.mjs to write the cache (the same compile, same source text), and
 * by the benchmark to build and start its floor agent the same way.
 */
const { readFileSync, writeFileSync } = require("node:fs");
const { dirname, join } = require("node:path");
const { Script } = require("node:vm");
const { createRequire } = require("node:module");

const DIST = join(__dirname, "..", "dist");

const compile = (file, cachedData) => {
  const source = readFileSync(file, "utf8");
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  return new Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
};

const run = (script, file) => {
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
};

const readOptional = (path) => {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
};

/** The exports of the current bundle (its `start` runs the agent). */
exports.loadBundle = () => {
  const manifestText = readOptional(join(DIST, "mm-acp.json"));
  if (manifestText === undefined) {
    process.stderr.write("mm-acp: not built yet: run `corepack pnpm install` (it builds) or `node apps/acp-stdio/build.mjs`\n");
    process.exit(1);
  }
  const manifest = JSON.parse(manifestText.toString("utf8"));
  return exports.loadFile(join(DIST, manifest.bundle), join(DIST, manifest.cache));
};

/** The exports of the CommonJS `file`, compiled with the code cache in `cacheFile` when it fits. */
exports.loadFile = (file, cacheFile) => run(compile(file, readOptional(cacheFile)), file);

/** Loads `file` (without starting it) and writes V8's code cache for it to `out`. */
exports.writeCodeCache = (file, out) => {
  const script = compile(file);
  run(script, file);
  writeFileSync(out, script.createCachedData());
};

/**
 * Loads `file`, starts it (the agent then serves whatever arrives on stdin) and, when the process
 * exits, writes V8's code cache for it to `out`: the cache then holds what start-up and the first
 * requests ran, not only the bundle's top level.
 */
exports.writeWarmCodeCache = (file, out) => {
  const script = compile(file);
  const loaded = run(script, file);
  process.once("exit", () => writeFileSync(out, script.createCachedData()));
  loaded.start();
};
