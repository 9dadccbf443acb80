/**
 * The start-up bundle builds the ACP SDK's zod schemas on first use (build-plugins/lazy-schemas.mjs).
 * Proof that this changes nothing the agent sees: the SDK's schema modules bundled with and without the
 * plugin parse the same payloads, valid and not, to the same data and the same issues.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { runInThisContext } from "node:vm";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the build, without type declarations
import { lazySchemas, lazyTopLevelSchemas } from "../build-plugins/lazy-schemas.mjs";

const require_ = createRequire(import.meta.url);
const SCHEMA_DIR = join(dirname(require_.resolve("@agentclientprotocol/sdk")), "..", "schema");

type Schema = { safeParse: (value: unknown) => { success: boolean; data?: unknown; error?: { issues: unknown[] } } };
type Schemas = Record<string, Schema>;

/** The SDK's schema modules as one CommonJS bundle, evaluated here. */
const bundle = async (lazy: boolean): Promise<{ zod: Schemas; guards: Record<string, unknown> }> => {
  const result = await build({
    stdin: { contents: 'export * as zod from "./zod.gen.js"; export * as guards from "./guards.gen.js";', resolveDir: SCHEMA_DIR, loader: "js" },
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    logLevel: "silent",
    plugins: lazy ? [lazySchemas] : [],
  });
  const module = { exports: {} as { zod: Schemas; guards: Record<string, unknown> } };
  (runInThisContext(`(function (exports, require, module) {${result.outputFiles[0]!.text}\n})`) as (e: unknown, r: NodeRequire, m: unknown) => void)(
    module.exports,
    require_,
    module,
  );
  return module.exports;
};

const PAYLOADS: [string, unknown][] = [
  ["zInitializeRequest", { protocolVersion: 1, clientCapabilities: {} }],
  ["zInitializeRequest", { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: 3 } }, clientInfo: { name: "zed", version: "1" } }],
  ["zInitializeRequest", { protocolVersion: "one" }],
  ["zInitializeRequest", {}],
  ["zNewSessionRequest", { cwd: "/tmp", mcpServers: [] }],
  ["zNewSessionRequest", { cwd: "/tmp", mcpServers: [{ name: "x", command: "y", args: [], env: [] }, { type: "http", name: "h", url: "u", headers: [] }] }],
  ["zNewSessionRequest", { cwd: 7 }],
  ["zPromptRequest", { sessionId: "s", prompt: [{ type: "text", text: "hi" }, { type: "resource_link", uri: "file:///a", name: "a" }] }],
  ["zPromptRequest", { sessionId: "s", prompt: [{ type: "image", data: 1 }] }],
  ["zPromptRequest", { sessionId: "s", prompt: "hi" }],
  ["zCancelNotification", { sessionId: "s" }],
  ["zLoadSessionRequest", { sessionId: "s", cwd: "/", mcpServers: [] }],
  ["zRequestPermissionResponse", { outcome: { outcome: "selected", optionId: "allow" } }],
  ["zRequestPermissionResponse", { outcome: { outcome: "cancelled" } }],
  ["zRequestPermissionResponse", { outcome: { outcome: "maybe" } }],
  ["zSessionNotification", { sessionId: "s", update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } } }],
  ["zSessionNotification", { sessionId: "s", update: { sessionUpdate: "tool_call", toolCallId: "c", title: "t", kind: "nope" } }],
  ["zReadTextFileResponse", { content: "text" }],
  ["zWriteTextFileResponse", null],
];

describe("the SDK's zod schemas built on first use", () => {
  it("wrap every top-level schema of both generated files", async () => {
    const { readFile } = await import("node:fs/promises");
    for (const name of ["zod.gen.js", "guards.gen.js"]) {
      const path = join(SCHEMA_DIR, name);
      const { contents, count } = await lazyTopLevelSchemas(await readFile(path, "utf8"), path);
      expect(count).toBeGreaterThan(name === "zod.gen.js" ? 150 : 5);
      expect(contents).toContain("z.lazy(() =>");
    }
  });

  it("parse what the client sends to the same data and the same issues", async () => {
    const eager = await bundle(false);
    const lazy = await bundle(true);
    for (const [name, payload] of PAYLOADS) {
      const schema = eager.zod[name];
      expect(schema, name).toBeDefined();
      const expected = schema!.safeParse(payload);
      const actual = lazy.zod[name]!.safeParse(payload);
      expect({ name, success: actual.success, data: actual.data, issues: actual.error?.issues }).toEqual({
        name,
        success: expected.success,
        data: expected.data,
        issues: expected.error?.issues,
      });
    }
    expect(PAYLOADS.some(([name, payload]) => !eager.zod[name]!.safeParse(payload).success)).toBe(true);
    expect(Object.keys(lazy.guards).sort()).toEqual(Object.keys(eager.guards).sort());
  });
});
