// An esbuild plugin for the start-up bundle: the ACP SDK's generated zod schemas built on first use.
//
// The SDK (@agentclientprotocol/sdk 2.4.0) builds about 200 zod schemas when it is imported
// (dist/v1/schema/zod.gen.js, and the narrowing guards of guards.gen.js), to validate what the client
// sends. Building them all was the largest part of evaluating the bundle: about 20 ms of the ~80 ms
// start-up cost above a bare node process (apps/acp-stdio/bench). This plugin wraps each top-level
// schema's initializer in zod's own `z.lazy(() => …)`: the schema is built when it first parses
// something, with the same result and the same issues (z.lazy is zod's documented way to defer a
// schema; `.and`, `.optional()`, `.catch` and the rest work on it). A start-up then builds the
// `initialize` request's six schemas, not two hundred. The `z.lazy` objects themselves (about 14 µs and
// 3 kB each: zod's schema objects carry their methods per instance) are made when first needed: at
// start-up for the schemas the SDK's method tables name, later for those only other schemas name; and
// the bundle leaves out the schemas nothing it keeps refers to (see `lazyTopLevelSchemas`).
//
// The files are parsed with TypeScript's parser (a devDependency of the workspace). The build fails
// if a file yields no schema to wrap: an SDK whose layout changed must be looked at, not skipped.
import { readFile } from "node:fs/promises";

const FILES = /@agentclientprotocol[\\/]sdk[\\/]dist[\\/].*[\\/](zod|guards)\.gen\.js$/;

/**
 * `source` with every top-level `[export] const z… = <expression>` as a memoised maker of
 * `z.lazy(() => <expression>)` and the binding, made by it:
 *
 *   let zA$built; const zA$ = () => (zA$built ??= z.lazy(() => <expression>)); export const zA = zA$();
 *
 * Inside the expressions, a schema of the same file is reached through its maker (`zB$()`), so a schema
 * only the expressions of others name gets its `z.lazy` object when one of them is built, not at
 * start-up; `zA$()` is marked pure, so a binding nothing reads is left out of the bundle. Each name still
 * stands for one `z.lazy` object, the same wherever it is read (recursive schemas work as before).
 */
export const lazyTopLevelSchemas = async (source, path) => {
  const ts = (await import("typescript")).default;
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const fail = (what) => {
    throw new Error(`lazy-schemas: ${path}: ${what}`);
  };
  const schemas = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const found = statement.declarationList.declarations.filter(
      ({ initializer, name }) => initializer !== undefined && ts.isIdentifier(name) && /^z[A-Z]/.test(name.text),
    );
    if (found.length === 0) continue;
    if (statement.declarationList.declarations.length > 1 || (statement.declarationList.flags & ts.NodeFlags.Const) === 0) fail("a schema not declared alone with const");
    const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) === true;
    schemas.push({ statement, exported, name: found[0].name.text, initializer: found[0].initializer });
  }
  if (schemas.length === 0) fail("no top-level zod schema found");
  if (!/^import \* as z from "zod(\/v4)?";$/m.test(source)) fail("zod is not imported as z");
  if (/\$built\b|\bz[A-Z]\w*\$/.test(source)) fail("names of the form zX$ or …$built are taken");
  const names = new Set(schemas.map((s) => s.name));
  /** The expression's text, each schema of the file it names reached through that schema's maker. */
  const throughMakers = (initializer) => {
    const at = [];
    const visit = (node) => {
      if (ts.isIdentifier(node) && names.has(node.text)) {
        const parent = node.parent;
        if (ts.isShorthandPropertyAssignment(parent)) fail(`a shorthand property ${node.text}`);
        const isKey = (ts.isPropertyAccessExpression(parent) || ts.isPropertyAssignment(parent)) && parent.name === node;
        if (!isKey) at.push(node.getEnd());
      }
      ts.forEachChild(node, visit);
    };
    visit(initializer);
    const start = initializer.getStart(file);
    let text = source.slice(start, initializer.getEnd());
    for (const end of at.reverse()) text = `${text.slice(0, end - start)}$()${text.slice(end - start)}`;
    return text;
  };
  let out = source;
  for (const { statement, exported, name, initializer } of schemas.reverse()) {
    const made = `let ${name}$built; const ${name}$ = () => (${name}$built ??= z.lazy(() => ${throughMakers(initializer)})); ${exported ? "export " : ""}const ${name} = /* @__PURE__ */ ${name}$();`;
    out = `${out.slice(0, statement.getStart(file))}${made}${out.slice(statement.getEnd())}`;
  }
  return { contents: out, count: schemas.length };
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
