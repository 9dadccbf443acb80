/**
 * The start-up bundle takes fp-ts's ES module build where @mm/core imports its CommonJS one
 * (build-plugins/fp-ts-es-modules.mjs). Proof that the bundle gets the ES modules only, smaller, and
 * that the functions @mm/core uses answer alike from both builds.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runInThisContext } from "node:vm";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the build, without type declarations
import { fpTsEsModules } from "../build-plugins/fp-ts-es-modules.mjs";

const require_ = createRequire(import.meta.url);
/** Where fp-ts resolves from as @mm/core imports it. */
const CORE_SRC = join(dirname(fileURLToPath(import.meta.url)), "../../../packages/core/src");

/** What @mm/core calls, over a few inputs, as JSON. */
const ENTRY = `
import * as O from "fp-ts/lib/Option.js";
import * as RA from "fp-ts/lib/ReadonlyArray.js";
import { pipe } from "fp-ts/lib/function.js";
const xs = [1, 2, 3, 4];
export const results = JSON.stringify([
  pipe(xs, RA.filterMapWithIndex((i, x) => (i % 2 === 0 ? O.some(x * 10) : O.none))),
  pipe(xs, RA.chain((x) => [x, x])),
  pipe(xs, RA.chainWithIndex((i, x) => [i + x])),
  RA.lookup(2)(xs), RA.lookup(9)(xs),
  pipe(O.fromNullable(null), O.match(() => "none", (v) => v)),
  pipe(O.some(5), O.filter((v) => v > 3), O.chain((v) => O.some(v + 1)), O.match(() => 0, (v) => v)),
]);
`;

const bundle = async (esModules: boolean) => {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: CORE_SRC, loader: "js" },
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: esModules ? [fpTsEsModules] : [],
  });
  const text = result.outputFiles[0]!.text;
  const module = { exports: {} as { results: string } };
  (runInThisContext(`(function (exports, require, module) {${text}\n})`) as (e: unknown, r: NodeRequire, m: unknown) => void)(module.exports, require_, module);
  return { results: module.exports.results, inputs: Object.keys(result.metafile.inputs), size: text.length };
};

describe("fp-ts's ES modules in the start-up bundle", () => {
  it("replace the CommonJS build, smaller, with the same answers", async () => {
    const commonJs = await bundle(false);
    const esModules = await bundle(true);
    expect(commonJs.inputs.some((path) => path.includes("fp-ts/lib/"))).toBe(true);
    expect(esModules.inputs.filter((path) => path.includes("fp-ts/")).every((path) => path.includes("fp-ts/es6/"))).toBe(true);
    expect(esModules.size).toBeLessThan(commonJs.size / 2);
    expect(esModules.results).toBe(commonJs.results);
  });
});
