// An esbuild plugin for the start-up bundle: the ACP SDK's generated zod schemas built on first use.
//
// The SDK (@agentclientprotocol/sdk 2.4.0) builds about 200 zod schemas when it is imported
// (dist/v1/schema/zod.gen.js, and the narrowing guards of guards.gen.js), to validate what the client
// sends. Building them all was the largest part of evaluating the bundle: about 20 ms of the ~80 ms
// start-up cost above a bare node process (apps/acp-stdio/bench). This plugin wraps each top-level
// schema's initializer in zod's own `z.lazy(() => …)`: the schema is built when it first parses
// something, with the same result and the same issues (z.lazy is zod's documented way to defer a
// schema; `.and`, `.optional()`, `.catch` and the rest work on it). A start-up then builds the
// `initialize` request's six schemas, not two hundred. Each `z.lazy` is marked pure: the bundle leaves out
// the schemas nothing it keeps refers to (191 → 122 in mm's bundle; each costs ~10 µs to construct).
//
// The files are parsed with TypeScript's parser (a devDependency of the workspace). The build fails
// if a file yields no schema to wrap: an SDK whose layout changed must be looked at, not skipped.
import { readFile } from "node:fs/promises";

const FILES = /@agentclientprotocol[\\/]sdk[\\/]dist[\\/].*[\\/](zod|guards)\.gen\.js$/;

/** `source` with every top-level `const z… = <expression>` as `const z… = z.lazy(() => <expression>)`. */
export const lazyTopLevelSchemas = async (source, path) => {
  const ts = (await import("typescript")).default;
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const spans = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const { initializer, name } = declaration;
      if (initializer === undefined || !ts.isIdentifier(name) || !/^z[A-Z]/.test(name.text)) continue;
      spans.push([initializer.getStart(file), initializer.getEnd()]);
    }
  }
  if (spans.length === 0) throw new Error(`lazy-schemas: no top-level zod schema found in ${path}`);
  if (!/^import \* as z from "zod(\/v4)?";$/m.test(source)) throw new Error(`lazy-schemas: ${path} does not import zod as z`);
  let out = source;
  for (const [start, end] of spans.reverse()) out = `${out.slice(0, start)}/* @__PURE__ */ z.lazy(() => ${out.slice(start, end)})${out.slice(end)}`;
  return { contents: out, count: spans.length };
};

export const lazySchemas = {
  name: "lazy-schemas",
  setup(build) {
    build.onLoad({ filter: FILES }, async (args) => {
      const { contents } = await lazyTopLevelSchemas(await readFile(args.path, "utf8"), args.path);
      return { contents, loader: "js" };
    });
  },
};
