/**
 * The params of `initialize`, checked without zod in the common case. The ACP SDK checks every
 * request's params with its zod schema; for `initialize`, the first message of every process, that
 * check builds the schema and zod's per-shape internals on the spot: about 1.5 ms of the 15 ms mm
 * adds to a bare node process's start-up (apps/acp-stdio/bench, `time-startup.ts`), and a third of a
 * MB of objects that bring on a garbage collection before the answer.
 *
 * `initializeParams(schema)` is the parser the start-up bundle hands the SDK for `initialize`
 * (build-plugins/fast-initialize.mjs puts it in the SDK's table of request params): the params of the
 * shapes editors send (JSON, the capabilities of this version of the spec) are checked here, to the
 * object zod makes of them, key for key and in its key order; anything else (a field this check does
 * not know, a value of another type, an invalid protocol version) goes to the SDK's own schema, which
 * answers it as before, errors included. `initialize-params.test.ts` compares both on thousands of
 * generated params.
 */
import type * as acp from "@agentclientprotocol/sdk";

type Schema = { readonly parse: (params: unknown) => unknown };
type Plain = Record<string, unknown>;

/** Declined: the SDK's schema decides. */
const NO = undefined;

const isPlain = (value: unknown): value is Plain => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** Whether every own key of `value` is one of `known` (none of them `__proto__`, no undefined value). */
const only = (value: Plain, known: readonly string[]): boolean => {
  for (const key of Object.keys(value)) if (!known.includes(key) || value[key] === undefined) return false;
  return true;
};

/** What zod's `z.record(z.string(), z.unknown()).nullish()` makes of a JSON value, or NO. */
const meta = (value: unknown): Plain | null | undefined => {
  if (value === null) return null;
  if (!isPlain(value)) return NO;
  const copy: Plain = {};
  for (const key of Object.keys(value)) {
    if (key === "__proto__") return NO;
    copy[key] = value[key];
  }
  return copy;
};

const flag = (value: unknown): boolean | undefined => (value === undefined ? false : typeof value === "boolean" ? value : NO);

const fileSystem = (value: unknown): acp.FileSystemCapabilities | undefined => {
  if (value === undefined) return { readTextFile: false, writeTextFile: false };
  if (!isPlain(value) || !only(value, ["readTextFile", "writeTextFile"])) return NO;
  const readTextFile = flag(value.readTextFile);
  const writeTextFile = flag(value.writeTextFile);
  return readTextFile === NO || writeTextFile === NO ? NO : { readTextFile, writeTextFile };
};

const auth = (value: unknown): { terminal: boolean } | undefined => {
  if (value === undefined) return { terminal: false };
  if (!isPlain(value) || !only(value, ["terminal"])) return NO;
  const terminal = flag(value.terminal);
  return terminal === NO ? NO : { terminal };
};

const capabilities = (value: unknown): acp.ClientCapabilities | undefined => {
  if (value === undefined) return { fs: { readTextFile: false, writeTextFile: false }, terminal: false, auth: { terminal: false } } as acp.ClientCapabilities;
  if (!isPlain(value) || !only(value, ["fs", "terminal", "auth", "_meta"])) return NO;
  const fs = fileSystem(value.fs);
  const terminal = flag(value.terminal);
  const authCapabilities = auth(value.auth);
  if (fs === NO || terminal === NO || authCapabilities === NO) return NO;
  const made: Plain = { fs, terminal, auth: authCapabilities };
  if ("_meta" in value) {
    const m = meta(value._meta);
    if (m === NO) return NO;
    made._meta = m;
  }
  return made as acp.ClientCapabilities;
};

const implementation = (value: unknown): acp.Implementation | null | undefined => {
  if (value === null) return null;
  if (!isPlain(value) || !only(value, ["name", "title", "version"])) return NO;
  const { name, title, version } = value;
  if (typeof name !== "string" || typeof version !== "string") return NO;
  if ("title" in value && typeof title !== "string" && title !== null) return NO;
  return ("title" in value ? { name, title, version } : { name, version }) as acp.Implementation;
};

/** The object zod's `zInitializeRequest` makes of `params`, when this check knows their shape; else NO. */
export const fastInitializeParams = (params: unknown): acp.InitializeRequest | undefined => {
  if (!isPlain(params) || !only(params, ["protocolVersion", "clientCapabilities", "clientInfo", "_meta"])) return NO;
  const { protocolVersion } = params;
  if (typeof protocolVersion !== "number" || !Number.isSafeInteger(protocolVersion) || protocolVersion < 0 || protocolVersion > 65535) return NO;
  const clientCapabilities = capabilities(params.clientCapabilities);
  if (clientCapabilities === NO) return NO;
  const made: Plain = { protocolVersion, clientCapabilities };
  if ("clientInfo" in params) {
    const clientInfo = implementation(params.clientInfo);
    if (clientInfo === NO) return NO;
    made.clientInfo = clientInfo;
  }
  if ("_meta" in params) {
    const m = meta(params._meta);
    if (m === NO) return NO;
    made._meta = m;
  }
  return made as acp.InitializeRequest;
};

/** The parser of `initialize` params: the check above, else `schema` (the SDK's zod schema). */
export const initializeParams = (schema: Schema): Schema => ({
  parse: (params) => fastInitializeParams(params) ?? schema.parse(params),
});
