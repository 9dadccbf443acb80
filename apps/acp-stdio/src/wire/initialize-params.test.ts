/**
 * The hand-written check of `initialize` params against the SDK's own zod schema: on every params it
 * accepts, the same object (same keys, same order, same values); the params real clients send are
 * accepted; whatever it declines is left to the schema, errors included.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { fastInitializeParams, initializeParams } from "./initialize-params.js";

type Schema = { parse: (value: unknown) => unknown; safeParse: (value: unknown) => { success: boolean; data?: unknown; error?: unknown } };

const require_ = createRequire(import.meta.url);
const ZOD_GEN = join(dirname(require_.resolve("@agentclientprotocol/sdk")), "..", "schema", "zod.gen.js");
let schema: Schema;
beforeAll(async () => {
  schema = ((await import(pathToFileURL(ZOD_GEN).href)) as { zInitializeRequest: Schema }).zInitializeRequest;
});

/** Key order matters (the SDK serialises what it got), so objects are compared through their entries, recursively. */
const shape = (value: unknown): unknown =>
  typeof value === "object" && value !== null ? (Array.isArray(value) ? value.map(shape) : Object.entries(value).map(([k, v]) => [k, shape(v)])) : value;

const expectSameAsZod = (params: unknown): boolean => {
  const fast = fastInitializeParams(params);
  if (fast === undefined) return false;
  const zod = schema.safeParse(params);
  expect(zod.success, JSON.stringify(params)).toBe(true);
  expect(shape(fast), JSON.stringify(params)).toEqual(shape(zod.data));
  return true;
};

/** What real clients sent mm (acpx 0.19, Zed, acp.el, the SDK's client, the bench's). */
const CLIENTS: unknown[] = [
  { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true }, clientInfo: { name: "acpx", version: "0.19.1" } },
  {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true, _meta: { terminal_output: true, "terminal-auth": true } },
    clientInfo: { name: "zed", title: "Zed", version: "0.212.0" },
  },
  { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false } } },
  { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false }, clientInfo: { name: "mm-bench", version: "1" } },
  { protocolVersion: 1, clientCapabilities: {} },
  { protocolVersion: 1 },
];

/** Values for each field: absent (undefined), the valid kinds, and kinds the schema replaces or refuses. */
const FLAGS = [undefined, true, false, null, "yes", 1];
const METAS = [undefined, null, {}, { a: 1, b: { c: [1] } }, [], "x", JSON.parse('{"__proto__": {"x": 1}}') as unknown, { 1: "a", b: 2 }];
const objectWith = (entries: [string, unknown][]): Record<string, unknown> => {
  const made: Record<string, unknown> = {};
  for (const [key, value] of entries) if (value !== undefined) made[key] = value;
  return made;
};
const FS = [undefined, null, "no", ...FLAGS.flatMap((r) => FLAGS.map((w) => objectWith([["readTextFile", r], ["writeTextFile", w]]))), { readTextFile: true, extra: 1 }, { _meta: {} }];
const AUTH = [undefined, null, {}, { terminal: true }, { terminal: "no" }, { terminal: false, _meta: {} }];
const CAPABILITIES = [
  undefined,
  null,
  [],
  ...FS.flatMap((fs) => FLAGS.map((terminal) => objectWith([["fs", fs], ["terminal", terminal]]))),
  ...AUTH.flatMap((auth) => METAS.map((m) => objectWith([["auth", auth], ["_meta", m]]))),
  { session: {} },
  { elicitation: { form: {} } },
  { unknownCapability: true },
];
const INFOS = [
  undefined,
  null,
  "zed",
  { name: "zed", version: "1" },
  { name: "zed", title: "Zed", version: "1" },
  { name: "zed", title: null, version: "1" },
  { name: "zed", title: 3, version: "1" },
  { name: "zed" },
  { name: 3, version: "1" },
  { name: "zed", version: "1", _meta: {} },
  { version: "1", name: "zed", title: "Zed" },
];
const VERSIONS = [undefined, 0, 1, 2, 65535, 65536, -1, 1.5, "1", null];

describe("initialize params without zod", () => {
  it("accepts what real clients send, to zod's object", () => {
    for (const params of CLIENTS) expect(expectSameAsZod(params), JSON.stringify(params)).toBe(true);
  });

  it("makes zod's object of every params it accepts, over generated combinations", () => {
    let accepted = 0;
    let declined = 0;
    for (const protocolVersion of VERSIONS)
      for (const clientCapabilities of CAPABILITIES)
        for (const clientInfo of INFOS)
          for (const m of [undefined, null, { x: 1 }, "bad"]) {
            const params = objectWith([["protocolVersion", protocolVersion], ["clientCapabilities", clientCapabilities], ["clientInfo", clientInfo], ["_meta", m]]);
            if (expectSameAsZod(params)) accepted++;
            else declined++;
          }
    for (const params of [{ protocolVersion: 1, extra: 1 }, [], null, "x", 1, Object.create({ protocolVersion: 1 })]) {
      if (expectSameAsZod(params)) accepted++;
      else declined++;
    }
    // Both sides are exercised: the check is not vacuous, nor does it take everything.
    expect(accepted).toBeGreaterThan(1000);
    expect(declined).toBeGreaterThan(1000);
  });

  it("leaves what it declines to the schema: its answer and its errors", () => {
    const calls: unknown[] = [];
    const parser = initializeParams({ parse: (params) => (calls.push(params), schema.parse(params)) });
    expect(parser.parse({ protocolVersion: 1 })).toEqual({ protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false, auth: { terminal: false } } });
    expect(calls).toEqual([]);
    const odd = { protocolVersion: 1, clientCapabilities: { session: {} } };
    expect(parser.parse(odd)).toEqual(schema.parse(odd));
    expect(calls).toEqual([odd]);
    let fromSchema: unknown;
    try {
      schema.parse({ protocolVersion: 1.5 });
    } catch (error) {
      fromSchema = error;
    }
    expect(fromSchema).toBeDefined();
    expect(() => parser.parse({ protocolVersion: 1.5 })).toThrow((fromSchema as Error).message);
  });
});
