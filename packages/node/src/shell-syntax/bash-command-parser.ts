/**
 * The `CommandParser` port over tree-sitter-bash (web-tree-sitter, WebAssembly): loaded on first
 * use, from the two `.wasm` files found beside the bundle (`dist/chunks/`) or in node_modules. A command
 * the grammar does not read without error, or a parser that cannot load, is `parsed: false`: asked.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { CommandParser, CommandShape } from "@mm/core";
import { shapeOfTree } from "./shape-of-tree.js";
import type { SyntaxNode } from "./syntax-node.js";

const RUNTIME = "web-tree-sitter.wasm";
const GRAMMAR = "tree-sitter-bash.wasm";

/** Where the two files are: `dir` when given, beside the bundle (entry or chunk), else node_modules. */
const wasmPaths = (dir: string | undefined): { readonly runtime: string; readonly grammar: string } | undefined => {
  // The bundle (apps/acp-stdio/build.mjs) puts them in dist/chunks/: beside a chunk, or under the entry.
  const dirs = dir !== undefined ? [dir] : [fileURLToPath(new URL("./", import.meta.url)), fileURLToPath(new URL("./chunks/", import.meta.url))];
  for (const d of dirs) {
    if (existsSync(`${d}/${RUNTIME}`) && existsSync(`${d}/${GRAMMAR}`)) return { runtime: `${d}/${RUNTIME}`, grammar: `${d}/${GRAMMAR}` };
  }
  if (dir !== undefined) return undefined;
  try {
    const require = createRequire(import.meta.url);
    return { runtime: require.resolve(`web-tree-sitter/${RUNTIME}`), grammar: require.resolve(`tree-sitter-bash/${GRAMMAR}`) };
  } catch {
    return undefined;
  }
};

type Parse = (command: string) => CommandShape;

const load = async (dir: string | undefined): Promise<Parse | string> => {
  const paths = wasmPaths(dir);
  if (paths === undefined) return "the shell grammar's files are missing";
  try {
    const { Parser, Language } = await import("web-tree-sitter");
    await Parser.init({ wasmBinary: await readFile(paths.runtime) });
    const bash = await Language.load(await readFile(paths.grammar));
    const parser = new Parser();
    parser.setLanguage(bash);
    return (command) => {
      const tree = parser.parse(command);
      if (tree === null) return { parsed: false, reason: "the parser gave no tree" };
      try {
        if (tree.rootNode.hasError) return { parsed: false, reason: "not valid shell syntax" };
        return shapeOfTree(tree.rootNode as unknown as SyntaxNode);
      } finally {
        tree.delete();
      }
    };
  } catch (error) {
    return `the shell grammar cannot load: ${String(error instanceof Error ? error.message : error).split("\n")[0]}`;
  }
};

/** The parser, loaded on first use (once); `wasmDir` overrides where its files are looked for. */
export const bashCommandParser = (wasmDir?: string): CommandParser => {
  let loading: Promise<Parse | string> | undefined;
  return {
    parse: async (command) => {
      loading ??= load(wasmDir);
      const parse = await loading;
      if (typeof parse === "string") return { parsed: false, reason: parse };
      try {
        return parse(command);
      } catch (error) {
        return { parsed: false, reason: `the parser failed: ${String(error instanceof Error ? error.message : error).split("\n")[0]}` };
      }
    },
  };
};
