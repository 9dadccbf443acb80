/**
 * The fences between the workspace's packages, checked mechanically over every source file (tests
 * may reach test helpers; what ships may not): the core imports nothing of ours; the adapters
 * (@mm/node, @mm/ai-model, @mm/mcp) import only the core; the test server imports nothing of ours;
 * only the ACP app (and the embedding example) puts them together. No relative import leaves its
 * package, and each package declares the workspace packages it imports.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { specifiersOf } from "./fences.test.js";

const repo = join(import.meta.dirname, "../../..");

/** Each package's folder and the workspace packages it may import. */
const FENCES: Readonly<Record<string, readonly string[]>> = {
  "packages/core": [],
  "packages/node": ["@mm/core"],
  "packages/ai-model": ["@mm/core"],
  "packages/mcp": ["@mm/core"],
  "packages/fake-openai": [],
  "apps/embed-example": ["@mm/core", "@mm/node", "@mm/ai-model"],
  "apps/acp-stdio": ["@mm/core", "@mm/node", "@mm/ai-model", "@mm/mcp", "@mm/fake-openai"],
};

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "dist" ? [] : sources(path);
    return /\.(ts|mjs|cjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });

/** A package's shipped sources: its `src`, and for the app its bin and build scripts. */
const shippedOf = (pkg: string): string[] => sources(join(repo, pkg, "src"));

/** What a file imports that its package may not: another package not in its fence, a path out of the package. */
const breaches = (pkg: string, file: string, allowed: readonly string[], text = readFileSync(file, "utf8")): string[] =>
  specifiersOf(text).flatMap((specifier) => {
    const at = `${relative(repo, file)}: ${specifier}`;
    if (specifier.startsWith("@mm/")) return allowed.includes(specifier.split("/").slice(0, 2).join("/")) ? [] : [at];
    if (specifier.startsWith(".")) return resolve(join(file, ".."), specifier).startsWith(`${join(repo, pkg)}/`) ? [] : [at];
    return [];
  });

describe("the packages' fences", () => {
  it.each(Object.entries(FENCES))("%s imports only what its layer may", (pkg, allowed) => {
    const files = shippedOf(pkg);
    expect(files.length).toBeGreaterThan(0);
    expect(files.flatMap((file) => breaches(pkg, file, allowed))).toEqual([]);
  });

  it.each(Object.entries(FENCES))("%s declares the workspace packages it imports", (pkg, allowed) => {
    const manifest = JSON.parse(readFileSync(join(repo, pkg, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const declared = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => name.startsWith("@mm/"));
    const used = new Set(
      shippedOf(pkg).flatMap((file) =>
        specifiersOf(readFileSync(file, "utf8"))
          .filter((s) => s.startsWith("@mm/"))
          .map((s) => s.split("/").slice(0, 2).join("/")),
      ),
    );
    for (const name of used) expect(declared, `${pkg} uses ${name}`).toContain(name);
    // The test server may be a dev dependency of anything (its tests); nothing ships it.
    for (const name of declared)
      if (name !== "@mm/fake-openai" || manifest.dependencies?.[name] !== undefined) expect(allowed, `${pkg} declares ${name}`).toContain(name);
  });

  it("catches a breach", () => {
    const file = join(repo, "packages/mcp/src/x.ts");
    expect(breaches("packages/mcp", file, ["@mm/core"], 'import { describeStoreError } from "@mm/core"; import { y } from "./y.js";')).toEqual([]);
    expect(breaches("packages/mcp", file, ["@mm/core"], 'import { nodeFileSystem } from "@mm/node"; import { a } from "../../node/src/a.js";')).toEqual([
      "packages/mcp/src/x.ts: @mm/node",
      "packages/mcp/src/x.ts: ../../node/src/a.js",
    ]);
  });
});
