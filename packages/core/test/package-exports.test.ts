/**
 * Every workspace package's `exports` resolve: each entry's `mm-source` (what the workspace runs) is a
 * source file that exists, and its `types` and `import` are the files the build (`tsc -p
 * tsconfig.build.json`: `src` → `dist`) makes of that source; a plain string entry names a file that
 * exists. An export left behind when its file moved (`@mm/node/config`) fails here, not in a user's import.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const repo = join(import.meta.dirname, "../../..");

/** The workspace's packages: every folder of `packages/` and `apps/` with a manifest. */
const PACKAGES = ["packages", "apps"].flatMap((group) =>
  readdirSync(join(repo, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(repo, group, entry.name, "package.json")))
    .map((entry) => `${group}/${entry.name}`),
);

type Entry = string | Readonly<Record<string, string>>;

/** What the build makes of a source under `src/`: `./src/a/b.ts` → `./dist/a/b.js` (or `.d.ts`). */
const built = (source: string, extension: ".js" | ".d.ts"): string => source.replace(/^\.\/src\//, "./dist/").replace(/\.ts$/, extension);

/** The problems of one export entry of `pkg`, as `pkg "subpath": why`. */
export const exportProblems = (pkg: string, subpath: string, entry: Entry, exists: (path: string) => boolean): string[] => {
  const at = `${pkg} "${subpath}"`;
  if (typeof entry === "string") return exists(join(pkg, entry)) ? [] : [`${at}: ${entry} does not exist`];
  const source = entry["mm-source"];
  if (source === undefined) return [`${at}: no mm-source condition`];
  if (!/^\.\/src\/.+\.ts$/.test(source)) return [`${at}: mm-source ${source} is not a source under ./src`];
  return [
    ...(exists(join(pkg, source)) ? [] : [`${at}: mm-source ${source} does not exist`]),
    ...(entry.types === built(source, ".d.ts") ? [] : [`${at}: types ${entry.types} is not what the build makes of ${source}`]),
    ...(entry.import === built(source, ".js") ? [] : [`${at}: import ${entry.import} is not what the build makes of ${source}`]),
  ];
};

describe("the packages' exports", () => {
  it("finds the packages", () => {
    expect(PACKAGES).toEqual(expect.arrayContaining(["packages/core", "packages/node", "packages/ai-model", "packages/mcp", "apps/acp-stdio"]));
  });

  it.each(PACKAGES)("%s: every export resolves to a source and what the build makes of it", (pkg) => {
    const manifest = JSON.parse(readFileSync(join(repo, pkg, "package.json"), "utf8")) as { exports?: Readonly<Record<string, Entry>> };
    const problems = Object.entries(manifest.exports ?? {}).flatMap(([subpath, entry]) =>
      exportProblems(pkg, subpath, entry, (path) => existsSync(join(repo, path))),
    );
    expect(problems).toEqual([]);
  });

  it("catches an export whose file is gone", () => {
    const exists = (path: string) => path === "packages/node/src/index.ts";
    const entry = (name: string) => ({ "mm-source": `./src/${name}.ts`, types: `./dist/${name}.d.ts`, import: `./dist/${name}.js` });
    expect(exportProblems("packages/node", ".", entry("index"), exists)).toEqual([]);
    expect(exportProblems("packages/node", "./config", entry("config"), exists)).toEqual([
      'packages/node "./config": mm-source ./src/config.ts does not exist',
    ]);
    expect(exportProblems("packages/node", ".", { "mm-source": "./src/index.ts", types: "./dist/index.d.ts", import: "./dist/main.js" }, exists)).toEqual([
      'packages/node ".": import ./dist/main.js is not what the build makes of ./src/index.ts',
    ]);
  });
});
