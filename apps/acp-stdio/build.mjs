// Builds mm-acp into dist/ with esbuild. `node bin/mm-acp.js` is what editors spawn; it loads:
//
//  dist/cjs/mm-front-<hash>.cjs     the start-up front (src/front.ts, 37 kB): reads the command line, the
//  dist/cjs/mm-front-<hash>.cache   configuration and the first message, answers `initialize`, then
//                                   loads the agent's bundle and hands it the stream; with its code cache.
//  dist/cjs/mm-acp-<hash>.cjs       the whole agent but the AI SDK provider, one CommonJS file. Its entry
//                                   (src/main.ts) exports `start` and `startAfterFront`; nothing runs on load.
//  dist/cjs/mm-acp-<hash>.cache     V8's code cache for it, made here by a node that loads it, starts it
//                                   and answers `initialize` and `session/new` (in a temporary home):
//                                   bin/mm-acp.js compiles the bundle with it, skipping the parse and
//                                   compile of what start-up runs. V8 checks the cache (its version, flags,
//                                   the source) and ignores one that does not fit: the bundle is then
//                                   compiled as usual. The caches fit this node only; under another one
//                                   (the published package on a user's machine) bin/load-bundle.cjs makes
//                                   and keeps that machine's own.
//  dist/cjs/ai-provider-<hash>.cjs  @ai-sdk/openai and its dependencies, loaded on the first model step
//                                   of the Responses API (chat-completions steps never load it),
//  dist/cjs/ai-provider-<hash>.cache  with V8's code cache for it (made by loading it once), the way
//                                   bin/load-bundle.cjs loads the bundle: about 30 ms off the first step.
//  dist/cjs/mcp-client-<hash>.cjs   @modelcontextprotocol/client, loaded when a session has MCP servers.
//  dist/THIRD-PARTY-NOTICES.txt    the licences of the npm packages bundled into these files.
//  dist/mm-acp.json                 which bundle, caches and provider are current, and the node the caches
//                                   are for (`v20.20.2-x64`); written last, atomically.
//                                   Files are named by content hash, so an agent started from an older
//                                   build keeps finding its own provider file.
//
// In the bundle, `node:crypto`, `node:child_process`, `node:fs/promises`, `node:os`, `node:http(s)`,
// `node:zlib`, `node:stream` and `node:readline` are loaded on first use, not at start-up; the ACP SDK's zod schemas are built on first use (build-plugins/
// lazy-schemas.mjs); the SDK checks `initialize` params without zod for the shapes editors send
// (build-plugins/fast-initialize.mjs, src/wire/initialize-params.ts); fp-ts comes from its ES module build, tree-shaken (build-plugins/fp-ts-es-modules.mjs);
// whitespace is minified (names are kept: a stack trace still names its functions).
//
// Measured (apps/acp-stdio/bench, spawn → `initialize`, 2 cores, Node 20): the former ESM bundle with
// code splitting 2.9–3.3× a bare node process; this CommonJS bundle without the cache 2.6×, with it
// 2.2×; with the schemas built on first use, the start-up's own code in the cache, the whitespace
// minified and no web streams (src/wire/light-streams.ts) about 1.55×. A V8 start-up snapshot of the
// same program (`node --snapshot-blob … --build-snapshot`, started by a shell launcher) was 2.1×: Node
// 20 builds user snapshots without its code cache, and the 6 MB blob costs about what evaluating the
// bundle does. It did not pay for a launcher, a stamp check and a 1.5 s build step, so it is not built.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { commonOptions, startupOptions } from "./build-plugins/bundle-options.mjs";
import { fastInitialize } from "./build-plugins/fast-initialize.mjs";
import { fpTsEsModules } from "./build-plugins/fp-ts-es-modules.mjs";
import { lazySchemas } from "./build-plugins/lazy-schemas.mjs";
import { warmCacheRun } from "./build-plugins/warm-cache-run.mjs";
import { thirdPartyNotices } from "./third-party-notices.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
const cjsDir = join(dist, "cjs");
const LAZY_BUILTINS = ["node:crypto", "node:child_process", "node:fs/promises", "node:os", "node:http", "node:https", "node:zlib", "node:stream", "node:readline"];

const common = commonOptions;

/** Writes `path` through a temp file and a rename: a concurrent reader sees the old file or the new one. */
const replaceFile = (path, write) => {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    write(temp);
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
};

const hashOf = (text) => createHash("sha256").update(text).digest("hex").slice(0, 12);

/** A built module as a content-named file; returns its name. */
const emit = (dir, stem, text) => {
  const name = `${stem}-${hashOf(text)}.cjs`;
  replaceFile(join(dir, name), (temp) => writeFileSync(temp, text));
  return name;
};

/**
 * `node:crypto` and `node:child_process` as modules whose functions require the real module on first
 * call. Only function exports are offered: a bundle that imports anything else from them fails to build
 * with this plugin, and is then built without it (see `bundleWith`).
 */
const lazyBuiltins = {
  name: "lazy-builtins",
  setup(b) {
    const filter = new RegExp(`^(${LAZY_BUILTINS.join("|")})$`);
    b.onResolve({ filter }, (args) =>
      args.namespace === "lazy-builtin" ? { path: args.path, external: true } : { path: args.path, namespace: "lazy-builtin" },
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, async (args) => {
      const real = await import(args.path);
      const names = Object.keys(real).filter((name) => name !== "default" && /^[A-Za-z_$][\w$]*$/.test(name) && typeof real[name] === "function");
      const wrappers = names.map(
        (name) =>
          `export function ${name}(...args) { const f = load().${name}; return new.target ? Reflect.construct(f, args, new.target) : f.apply(this, args); }`,
      );
      return {
        loader: "js",
        resolveDir: here,
        contents: [
          `let loaded; const load = () => (loaded ??= require(${JSON.stringify(args.path)}));`,
          ...wrappers,
        ].join("\n"),
      };
    });
  },
};

/** A package the agent imports on first use only, as a require of its own file (`module.exports = <request>`). */
const lazyFile = (name, packageName, request) => ({
  name: `${name}-file`,
  setup(b) {
    const filter = new RegExp(`^${packageName.replace(/[/.]/g, "\\$&")}$`);
    b.onResolve({ filter }, () => ({ path: name, namespace: name }));
    b.onLoad({ filter: /.*/, namespace: name }, () => ({ loader: "js", contents: `module.exports = ${request};` }));
  },
});

/** @mm/ai-model's `./sdk.js` (the AI SDK and undici), imported on the first model step, as a require of the provider file. */
const providerFile = (request) => ({
  name: "ai-provider-file",
  setup(b) {
    b.onResolve({ filter: /^\.\/sdk\.js$/ }, (args) =>
      /packages\/ai-model\/src\/provider-models\.ts$/.test(args.importer) ? { path: "ai-provider", namespace: "ai-provider" } : undefined,
    );
    b.onResolve({ filter: /(ai-provider-[0-9a-f]+\.cjs|mcp-client-[0-9a-f]+\.cjs|load-bundle\.cjs)$/ }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: "ai-provider" }, () => ({ loader: "js", contents: `module.exports = ${request};` }));
  },
});

const textOf = (result) => result.outputFiles[0].text;

/** The start-up bundle must not contain the AI SDK: it is loaded on the first model step only. */
const checkNoAiSdk = (result) => {
  const inputs = Object.keys(result.metafile?.inputs ?? {});
  const found = inputs.filter((path) => /node_modules\/(\.pnpm\/)?(@ai-sdk\+|ai@|undici@|@ai-sdk\/|ai\/|undici\/)/.test(path));
  if (found.length > 0) throw new Error(`the start-up bundle contains the AI SDK (it must load on first use): ${found.slice(0, 3).join(", ")}`);
  if (inputs.length === 0) throw new Error("no metafile: cannot check the start-up bundle");
  return result;
};

/**
 * The front must stay small: what answers `initialize` and reads the configuration, not the agent.
 * It fails the build if the front took in the ACP SDK, zod, or the agent's ports and core.
 */
const checkFront = (result) => {
  const inputs = Object.keys(result.metafile?.inputs ?? {});
  if (inputs.length === 0) throw new Error("no metafile: cannot check the start-up front");
  const found = inputs.filter((path) => /node_modules\/(\.pnpm\/)?(@agentclientprotocol|zod|@ai-sdk|@modelcontextprotocol)/.test(path) || /(src\/serve\.ts|src\/main\.ts|json-session-store\.ts|bash-shell\.ts)$/.test(path));
  if (found.length > 0) throw new Error(`the start-up front contains more than it needs: ${found.slice(0, 3).join(", ")}`);
  return result;
};

/** Builds with the lazy built-ins, or without them when the code imports something they do not offer. */
const bundleWith = async (options, plugins) => {
  try {
    return await build({ ...common, ...options, logLevel: "silent", plugins: [lazyBuiltins, ...plugins] });
  } catch (error) {
    if (!String(error?.message).includes("lazy-builtin:")) throw error;
    process.stderr.write(`build: ${LAZY_BUILTINS.join(" and ")} load at start-up: ${error.errors?.[0]?.text ?? error.message}\n`);
    return build({ ...common, ...options, plugins });
  }
};

mkdirSync(cjsDir, { recursive: true });

/** `packageName` re-exported from a file of its own, resolved from `fromDir` (a package that depends on it): its file name and metafile. */
const ownFile = async (name, packageName, fromDir) => {
  const result = await build({
    ...common,
    stdin: { contents: `export * from ${JSON.stringify(packageName)};`, resolveDir: join(here, fromDir), loader: "js" },
    outfile: join(cjsDir, `${name}.cjs`),
    metafile: true,
  });
  return { file: emit(cjsDir, name, textOf(result)), metafile: result.metafile };
};

// 1. The provider (@mm/ai-model's sdk.ts: the AI SDK's providers and middleware, undici): bundled once, on its own.
const { file: provider, metafile: providerMetafile } = await ownFile("ai-provider", "./sdk.ts", "../../packages/ai-model/src");

// 1a'. undici (@mm/ai-model imports it when a proxy is set), on its own too.
const { file: undiciFile, metafile: undiciMetafile } = await ownFile("undici", "undici", "../../packages/ai-model/src");

// 1a. The MCP client (@mm/mcp imports it when a session has MCP servers), on its own too.
const { file: mcpClient, metafile: mcpMetafile } = await ownFile("mcp-client", "@modelcontextprotocol/client", "../../packages/mcp/src");

// 1b. The provider's code cache.
const providerCache = provider.replace(/\.cjs$/, ".cache");
replaceFile(join(cjsDir, providerCache), (temp) =>
  execFileSync(
    process.execPath,
    ["-e", "require(process.argv[1]).writeCodeCache(process.argv[2], process.argv[3])", join(here, "bin/load-bundle.cjs"), join(cjsDir, provider), temp],
    { stdio: ["ignore", "ignore", "inherit"] },
  ),
);

// 2. The agent, its `require` being the bundle's own (bin/mm-acp.js passes one made for the bundle's path).
const agentBuild = checkNoAiSdk(
  await bundleWith({ entryPoints: [join(here, "src/main.ts")], outfile: join(cjsDir, "mm-acp.cjs"), metafile: true, ...startupOptions }, [
    lazySchemas,
    fastInitialize,
    fpTsEsModules,
    lazyFile("undici", "undici", `require("../../bin/load-bundle.cjs").loadFile(require("node:path").join(__dirname, ${JSON.stringify(undiciFile)}))`),
    lazyFile("mcp-client", "@modelcontextprotocol/client", `require("../../bin/load-bundle.cjs").loadFile(require("node:path").join(__dirname, ${JSON.stringify(mcpClient)}))`),
    providerFile(
      `require("../../bin/load-bundle.cjs").loadProvider(require("node:path").join(__dirname, ${JSON.stringify(provider)}), require("node:path").join(__dirname, ${JSON.stringify(providerCache)}))`,
    ),
  ]),
);
const bundle = emit(cjsDir, "mm-acp", textOf(agentBuild));

// 2a. The start-up front (src/front.ts): what answers `initialize` before the agent's bundle is loaded.
const frontBuild = checkFront(
  await bundleWith({ entryPoints: [join(here, "src/front.ts")], outfile: join(cjsDir, "mm-front.cjs"), metafile: true, ...startupOptions }, []),
);
const front = emit(cjsDir, "mm-front", textOf(frontBuild));

// The licences of what the bundles hold, shipped beside them.
replaceFile(join(dist, "THIRD-PARTY-NOTICES.txt"), (temp) =>
  writeFileSync(temp, thirdPartyNotices([providerMetafile, undiciMetafile, mcpMetafile, agentBuild.metafile, frontBuild.metafile], common.absWorkingDir)),
);

// 3. The code caches of the front and the bundle, and the provider's again, made by a node that
// loads them the way bin/mm-acp.js does, starts the agent in a temporary home (no configuration, no
// skills) and answers what an editor sends first, a prompt included (build-plugins/warm-cache-run.mjs).
const cache = bundle.replace(/\.cjs$/, ".cache");
const frontCache = front.replace(/\.cjs$/, ".cache");
const home = mkdtempSync(join(tmpdir(), "mm-build-"));
const cacheTemp = join(cjsDir, `${cache}.${process.pid}.tmp`);
const frontCacheTemp = join(cjsDir, `${frontCache}.${process.pid}.tmp`);
const providerCacheTemp = join(cjsDir, `${providerCache}.${process.pid}.tmp`);
try {
  await warmCacheRun({
    loadBundle: join(here, "bin/load-bundle.cjs"),
    build: { front: `cjs/${front}`, frontOut: frontCacheTemp, bundle: `cjs/${bundle}`, bundleOut: cacheTemp },
    providerCacheOut: providerCacheTemp,
    home,
  });
  renameSync(cacheTemp, join(cjsDir, cache));
  renameSync(frontCacheTemp, join(cjsDir, frontCache));
  // The provider's cache of step 1b is kept if the run did not load the provider.
  if (existsSync(providerCacheTemp)) renameSync(providerCacheTemp, join(cjsDir, providerCache));
} finally {
  rmSync(home, { recursive: true, force: true });
  rmSync(cacheTemp, { force: true });
  rmSync(frontCacheTemp, { force: true });
  rmSync(providerCacheTemp, { force: true });
}

replaceFile(join(dist, "mm-acp.json"), (temp) =>
  writeFileSync(
    temp,
    `${JSON.stringify({ front: `cjs/${front}`, frontCache: `cjs/${frontCache}`, bundle: `cjs/${bundle}`, cache: `cjs/${cache}`, provider: `cjs/${provider}`, providerCache: `cjs/${providerCache}`, mcpClient: `cjs/${mcpClient}`, undici: `cjs/${undiciFile}`, node: createRequire(import.meta.url)("./bin/load-bundle.cjs").RUNTIME })}\n`,
  ),
);

// 4. Old builds' files, a day after they were replaced (an agent still running from one keeps its
// provider file until then), at once when packing (the package ships dist/cjs/ whole), and what
// earlier versions of this script wrote.
const DAY_MS = 24 * 60 * 60 * 1000;
const packing = process.env.npm_lifecycle_event === "prepack";
const current = new Set([front, frontCache, bundle, cache, provider, providerCache, mcpClient, undiciFile]);
for (const name of readdirSync(cjsDir)) {
  const path = join(cjsDir, name);
  if (!current.has(name) && (packing || Date.now() - statSync(path).mtimeMs > DAY_MS)) rmSync(path, { force: true });
}
for (const name of readdirSync(dist)) {
  if (/^(main|chunk-.*|dist-.*|token-.*)\.js(\.map)?$/.test(name) || name === "snapshot") rmSync(join(dist, name), { recursive: true, force: true });
}
