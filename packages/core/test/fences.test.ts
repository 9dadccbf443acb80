/**
 * The core's fences, checked mechanically: its sources import only each other, neverthrow and fp-ts
 * (no `node:*`, no AI SDK, no ACP SDK), never read `process`, and its package declares exactly those
 * dependencies. (`tsc -p packages/core/tsconfig.json`, without Node's types, is the other half.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const ALLOWED = [/^\.\.?\//, /^neverthrow$/, /^fp-ts\/lib\/[A-Za-z]+\.js$/];

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });

/** Every module specifier of a file: static imports and exports, dynamic imports, requires. */
export const specifiersOf = (text: string): string[] =>
  [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"']+)["']/g)].map((m) => m[1]!);

const withoutComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

describe("the core's fences", () => {
  const files = sources(join(root, "src"));

  it("finds the sources and the specifiers it checks", () => {
    expect(files.length).toBeGreaterThan(40);
    expect(specifiersOf(`import { x } from "node:fs"; export * from './a.js'; await import("ai"); require('@agentclientprotocol/sdk')`)).toEqual([
      "node:fs",
      "./a.js",
      "ai",
      "@agentclientprotocol/sdk",
    ]);
  });

  it("imports only its own modules, neverthrow and fp-ts", () => {
    const outside = files.flatMap((file) =>
      specifiersOf(readFileSync(file, "utf8"))
        .filter((specifier) => !ALLOWED.some((allowed) => allowed.test(specifier)))
        .map((specifier) => `${file.slice(root.length + 1)}: ${specifier}`),
    );
    expect(outside).toEqual([]);
  });

  it("never reads process (environment, argv, platform)", () => {
    const readers = files.filter((file) => /\bprocess\s*[.[]/.test(withoutComments(readFileSync(file, "utf8"))));
    expect(readers.map((file) => file.slice(root.length + 1))).toEqual([]);
  });

  it("declares exactly its allowed dependencies", () => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { dependencies: Record<string, string>; peerDependencies?: unknown };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["fp-ts", "neverthrow"]);
    expect(manifest.peerDependencies).toBeUndefined();
  });
});
