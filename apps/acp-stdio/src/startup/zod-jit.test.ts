import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { runInThisContext } from "node:vm";
import { build } from "esbuild";
import { config } from "zod/v4";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the build, without type declarations
import { lazySchemas } from "../../build-plugins/lazy-schemas.mjs";
import { jitlessUntilFirstAnswer } from "./zod-jit.js";

const require_ = createRequire(import.meta.url);
const SCHEMA_DIR = join(dirname(require_.resolve("@agentclientprotocol/sdk")), "..", "schema");

type Schema = { parse: (value: unknown) => unknown };

/** The SDK's schemas as the start-up bundle has them (built on first use), in a fresh copy each call. */
const schemaCopies = async (): Promise<() => Record<string, Schema>> => {
  const result = await build({
    stdin: { contents: 'export * from "./zod.gen.js";', resolveDir: SCHEMA_DIR, loader: "js" },
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    logLevel: "silent",
    plugins: [lazySchemas],
  });
  const text = result.outputFiles[0]!.text;
  return () => {
    const module = { exports: {} as Record<string, Schema> };
    (runInThisContext(`(function (exports, require, module) {${text}\n})`) as (e: unknown, r: NodeRequire, m: unknown) => void)(module.exports, require_, module);
    return module.exports;
  };
};

const PAYLOADS: [string, unknown][] = [
  ["zInitializeRequest", { protocolVersion: 1, clientCapabilities: {} }],
  ["zInitializeRequest", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: false }, terminal: true, _meta: { terminal_output: true } }, clientInfo: { name: "zed", version: "1" } }],
  ["zInitializeRequest", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: "yes" } }, clientInfo: { name: 3 }, extra: 1 }],
  ["zInitializeRequest", { protocolVersion: "one" }],
  ["zInitializeRequest", {}],
  ["zInitializeRequest", null],
  ["zNewSessionRequest", { cwd: "/tmp", mcpServers: [{ name: "x", command: "y", args: [], env: [] }] }],
  ["zNewSessionRequest", { cwd: 7 }],
  ["zPromptRequest", { sessionId: "s", prompt: [{ type: "text", text: "hi" }, { type: "resource_link", uri: "file:///a", name: "a" }] }],
  ["zPromptRequest", { sessionId: "s", prompt: [{ type: "image", data: 1 }] }],
];

/** Each payload's parse: the data, or the issues. */
const parseAll = (schemas: Record<string, Schema>): unknown[] =>
  PAYLOADS.map(([name, payload]) => {
    try {
      return { data: schemas[name]!.parse(payload) };
    } catch (error) {
      return { issues: (error as { issues?: unknown }).issues };
    }
  });

/** How many functions `run` compiles with `new Function`. */
const functionsCompiledBy = <T>(run: () => T): { value: T; compiled: number } => {
  const original = globalThis.Function;
  let compiled = 0;
  globalThis.Function = new Proxy(original, {
    construct: (target, args) => {
      compiled++;
      return Reflect.construct(target, args);
    },
  });
  try {
    return { value: run(), compiled };
  } finally {
    globalThis.Function = original;
  }
};

afterEach(() => {
  delete config().jitless;
});

describe("zod's compiled parsers off until the first answer", () => {
  it("sets jitless and puts the default back once, leaving a setting made by someone else", () => {
    const restore = jitlessUntilFirstAnswer();
    expect(config().jitless).toBe(true);
    restore();
    expect("jitless" in config()).toBe(false);
    config({ jitless: true });
    restore();
    expect(config().jitless).toBe(true);
    delete config().jitless;
    config({ jitless: false });
    jitlessUntilFirstAnswer()();
    expect(config().jitless).toBe(false);
  });

  it("parse what the client sends to the same data and issues, compiling nothing until restored", async () => {
    const copy = await schemaCopies();
    const compiledParse = functionsCompiledBy(() => parseAll(copy()));
    expect(compiledParse.compiled).toBeGreaterThan(0);
    const restore = jitlessUntilFirstAnswer();
    const jitless = functionsCompiledBy(() => parseAll(copy()));
    restore();
    expect(jitless.compiled).toBe(0);
    expect(jitless.value).toEqual(compiledParse.value);
    expect(jitless.value.some((result) => "issues" in (result as object))).toBe(true);
  });
});
