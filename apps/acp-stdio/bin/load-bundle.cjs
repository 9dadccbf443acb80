"use strict";
/**
 * Loads mm-acp's CommonJS bundles (dist/mm-acp.json names the current ones: the start-up front, then,
 * once it has answered `initialize`, the agent's bundle) with V8's code cache, so what start-up runs
 * is neither parsed nor compiled again. V8 validates a cache (its version and flags, the
 * source) and ignores one that does not fit: the bundle is then compiled as usual.
 *
 * The cache the build made (dist/cjs/*.cache) fits the node that built it, named in the manifest. On
 * another node (a user's Node 22 running the published package), the cache is this machine's own:
 * made on the first run, a second after start-up, in $XDG_CACHE_HOME/mm/v8 (default ~/.cache/mm/v8),
 * and used from the next start on. The AI provider's file, loaded on the first model step, is cached the
 * same way. Used by bin/mm-acp.js, by build.mjs to write the caches, and by the benchmark to start its
 * floor agent the same way.
 */
const { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require("node:fs");
const { homedir } = require("node:os");
const { basename, dirname, isAbsolute, join } = require("node:path");
const { Script } = require("node:vm");
// Module.createRequire from this module's own constructor: requiring the public `node:module` costs
// about 0.15 ms of start-up more (its source-map and loader-hook parts).
const { createRequire } = module.constructor;

const DIST = join(__dirname, "..", "dist");
/** The node a code cache is made by and for. */
const RUNTIME = `${process.version}-${process.arch}`;
/** How long after loading the bundle its code cache is made, when it must be: start-up is over by then. */
const OWN_CACHE_DELAY_MS = 1000;

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

/** Where this machine's cache of `bundle` for this node lives. */
const ownCachePath = (bundle) => {
  const xdg = process.env.XDG_CACHE_HOME;
  const root = xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".cache");
  return join(root, "mm", "v8", `${basename(bundle, ".cjs")}-${RUNTIME}.cache`);
};

/** Writes the cache of `script` to `path` a little later, off the start-up path; a failure only costs speed. */
const writeOwnCacheLater = (script, path) => {
  const timer = setTimeout(() => {
    const temp = `${path}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(temp, script.createCachedData());
      renameSync(temp, path);
    } catch {
      rmSync(temp, { force: true });
    }
  }, OWN_CACHE_DELAY_MS);
  timer.unref();
};

/** The node the current build's caches were made for (set by loadBundle). */
let buildNode;

/**
 * The exports of the CommonJS `file`, compiled with the code cache in `cacheFile` when that cache was
 * made for this node (`node` undefined: assumed so), else with this machine's own cache of it.
 */
exports.loadFile = (file, cacheFile, node) => {
  if (node === undefined || node === RUNTIME) return run(compile(file, readOptional(cacheFile)), file);
  const own = ownCachePath(file);
  const script = compile(file, readOptional(own));
  const loaded = run(script, file);
  if (script.cachedDataRejected !== false) writeOwnCacheLater(script, own);
  return loaded;
};

/** The provider's compiled script once loaded, when a warm cache run is to write its cache (set by writeWarmCodeCache). */
let providerScript;

/** The AI provider's file, with its cache, as the bundle's first model step asks for it. */
exports.loadProvider = (file, cacheFile) => {
  if (providerScript === null) {
    providerScript = compile(file, readOptional(cacheFile));
    return run(providerScript, file);
  }
  return exports.loadFile(file, cacheFile, buildNode);
};

/** Scripts a warm cache run compiles without a cache, by file, with where their caches go (set by writeWarmCodeCache). */
let recording;
/** The scripts recorded so far, with where their caches go. */
const recorded = [];

/** `file`'s exports, compiled with its cache (`cacheFile`, for the build's node), or recorded in a warm cache run. */
const loadBuilt = (file, cacheFile, node) => {
  const out = recording?.get(file);
  if (out === undefined) return exports.loadFile(file, cacheFile, node);
  const script = compile(file);
  recorded.push([script, out]);
  return run(script, file);
};

/** The current build's manifest (dist/mm-acp.json); exits with a line on stderr when there is no build. */
const manifestOf = () => {
  const manifestText = readOptional(join(DIST, "mm-acp.json"));
  if (manifestText === undefined) {
    process.stderr.write("mm-acp: not built yet: run `corepack pnpm install` (it builds) or `node apps/acp-stdio/build.mjs`\n");
    process.exit(1);
  }
  return JSON.parse(manifestText.toString("utf8"));
};

/**
 * What starts the agent (`start`): the start-up front (src/front.ts), which loads the agent's bundle
 * once it has answered `initialize`; a build without a front, the agent's bundle itself.
 */
exports.loadBundle = (manifest = manifestOf()) => {
  buildNode = manifest.node;
  const inDist = (name) => (name === undefined ? undefined : join(DIST, name));
  const agent = () => loadBuilt(join(DIST, manifest.bundle), inDist(manifest.cache), manifest.node);
  if (manifest.front === undefined) return agent();
  const front = loadBuilt(join(DIST, manifest.front), inDist(manifest.frontCache), manifest.node);
  return { start: () => front.start(agent) };
};

/** The node a cache made now is for, as the manifest records it. */
exports.RUNTIME = RUNTIME;

/** Whether V8 takes `cache` for `file` under this node, compiled as the bundle is (for tests). */
exports.cacheFits = (file, cache) => compile(file, readFileSync(cache)).cachedDataRejected === false;

/** Loads `file` (without starting it) and writes V8's code cache for it to `out`. */
exports.writeCodeCache = (file, out) => {
  const script = compile(file);
  run(script, file);
  writeFileSync(out, script.createCachedData());
};

/**
 * Starts a build the way bin/mm-acp.js does (the agent then serves whatever arrives on stdin) and,
 * when the process exits, writes V8's code cache of each file it loaded to the path given for it:
 * the caches then hold what start-up and the first requests ran, not only the files' top level.
 * `build`: the front's and the agent bundle's files (relative to dist/, as the manifest names them),
 * each with where its cache goes (`frontOut`, `bundleOut`). With `providerOut`, the AI provider's
 * cache too, when the run loaded it (compiled with its load-time cache, so both hold what ran).
 */
exports.writeWarmCodeCache = (build, providerOut) => {
  recording = new Map([
    [join(DIST, build.front), build.frontOut],
    [join(DIST, build.bundle), build.bundleOut],
  ]);
  if (providerOut !== undefined) providerScript = null;
  process.once("exit", () => {
    for (const [script, out] of recorded) writeFileSync(out, script.createCachedData());
    if (providerOut !== undefined && providerScript) writeFileSync(providerOut, providerScript.createCachedData());
  });
  process.argv.splice(2); // the agent reads its own arguments: it is started with none
  exports.loadBundle({ front: build.front, bundle: build.bundle, node: RUNTIME }).start();
};
