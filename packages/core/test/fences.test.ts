/**
 * The core's fences, checked mechanically: its sources import only each other, neverthrow and fp-ts
 * (no `node:*`, no AI SDK, no ACP SDK), never read `process`, and its package declares exactly those
 * dependencies. (`tsc -p packages/core/tsconfig.json`, without Node's types, is the other half.)
 * Inside, each folder stands on a floor and imports only folders of lower floors: messages, paths
 * and schemas on the ground, the shared vocabulary (permission modes, tool-call views) just above,
 * the agent on top, no import running back up.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
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

/**
 * The floors of the core's folders (`.` is `src` itself: the index). A file may import its own
 * folder and folders of lower floors; a new folder gets its floor here.
 */
const FLOORS: Readonly<Record<string, number>> = {
  history: 1,
  paths: 1,
  schema: 1,
  vocabulary: 2,
  commands: 3,
  ports: 3,
  model: 4,
  prompt: 4,
  skills: 4,
  tools: 4,
  compaction: 5,
  http: 5,
  permissions: 5,
  session: 5,
  undo: 5,
  testing: 6,
  turn: 6,
  agent: 7,
  ".": 8,
};

/** The folder of `src` a file stands in (`.` for `src` itself). */
const folderOf = (file: string): string => {
  const path = relative(join(root, "src"), file);
  return path.includes("/") ? path.split("/")[0]! : ".";
};

/** The imports of `file` (text `text`) that run to a folder on its own floor or above, as `file: specifier`. */
export const upwardImports = (file: string, text: string): string[] => {
  const from = folderOf(file);
  return specifiersOf(text)
    .filter((specifier) => specifier.startsWith("."))
    .filter((specifier) => {
      const to = folderOf(resolve(dirname(file), specifier));
      return to !== from && !((FLOORS[to] ?? Number.POSITIVE_INFINITY) < (FLOORS[from] ?? Number.NEGATIVE_INFINITY));
    })
    .map((specifier) => `${relative(root, file)}: ${specifier}`);
};

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

  it("gives every folder a floor", () => {
    const folders = new Set(files.map(folderOf));
    expect([...folders].filter((folder) => FLOORS[folder] === undefined)).toEqual([]);
  });

  it("imports no folder on its own floor or above", () => {
    expect(files.flatMap((file) => upwardImports(file, readFileSync(file, "utf8")))).toEqual([]);
  });

  it("catches an upward import", () => {
    const file = join(root, "src/ports/x.ts");
    expect(upwardImports(file, 'import type { History } from "../history/message.js"; import { y } from "./y.js";')).toEqual([]);
    expect(upwardImports(file, 'import type { Tool } from "../tools/tool.js"; import { ok } from "neverthrow";')).toEqual(["src/ports/x.ts: ../tools/tool.js"]);
    expect(upwardImports(join(root, "src/tools/x.ts"), 'import { z } from "../prompt/z.js";')).toEqual(["src/tools/x.ts: ../prompt/z.js"]);
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
