/**
 * Validates every message the agent writes against the ACP JSON Schema shipped in the SDK, per
 * method (never against the top-level union, whose extension branches accept anything).
 */
import { createRequire } from "node:module";
import { Ajv2020 } from "ajv/dist/2020.js";

const require = createRequire(import.meta.url);
const schema = require("@agentclientprotocol/sdk/schema/v1/schema.json") as { $defs: Record<string, unknown> };

const ajv = new Ajv2020({ strict: false, allErrors: true });
const integer = (max: number) => ({ type: "number" as const, validate: (n: number) => Number.isInteger(n) && n >= 0 && n <= max });
ajv.addFormat("uint16", integer(0xffff));
ajv.addFormat("uint32", integer(0xffffffff));
ajv.addFormat("uint64", integer(Number.MAX_SAFE_INTEGER));
ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
ajv.addFormat("double", { type: "number", validate: () => true });
ajv.addFormat("uri", { type: "string", validate: (s: string) => URL.canParse(s) });
ajv.addSchema({ $id: "acp", $defs: schema.$defs });

const validator = (name: string) => {
  const validate = ajv.getSchema(`acp#/$defs/${name}`);
  if (validate === undefined) throw new Error(`no ${name} in the ACP schema`);
  return validate;
};

const RESPONSES: Record<string, string> = {
  initialize: "InitializeResponse",
  authenticate: "AuthenticateResponse",
  "session/new": "NewSessionResponse",
  "session/load": "LoadSessionResponse",
  "session/prompt": "PromptResponse",
  "session/list": "ListSessionsResponse",
  "session/resume": "ResumeSessionResponse",
  "session/close": "CloseSessionResponse",
  "session/delete": "DeleteSessionResponse",
  "session/set_mode": "SetSessionModeResponse",
  "session/set_config_option": "SetSessionConfigOptionResponse",
  // Unstable and gone from the schema; its response was `{ _meta? }`, the shape of set_mode's.
  "session/set_model": "SetSessionModeResponse",
  logout: "LogoutResponse",
};
const OUTGOING: Record<string, string> = {
  "session/update": "SessionNotification",
  "session/request_permission": "RequestPermissionRequest",
  "fs/read_text_file": "ReadTextFileRequest",
  "fs/write_text_file": "WriteTextFileRequest",
  "elicitation/create": "CreateElicitationRequest",
  "$/cancel_request": "CancelRequestNotification",
};

type Raw = { id?: unknown; method?: string; params?: unknown; result?: unknown; error?: unknown };

/**
 * Checks one message the agent sent. `requestMethods` maps the ids of the client's requests to their
 * methods so a response is checked against its method's response schema. Returns the problems.
 */
export const schemaProblems = (message: Raw, requestMethods: ReadonlyMap<unknown, string>): string[] => {
  const check = (name: string, value: unknown): string[] => {
    const validate = validator(name);
    return validate(value) ? [] : [`${name}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value).slice(0, 300)}`];
  };
  if (message.method !== undefined) {
    const name = OUTGOING[message.method];
    return name === undefined ? [`unexpected method from the agent: ${message.method}`] : check(name, message.params);
  }
  if (message.error !== undefined) {
    const e = message.error as { code?: unknown; message?: unknown };
    return typeof e.code === "number" && typeof e.message === "string" ? [] : [`malformed error ${JSON.stringify(e)}`];
  }
  const method = requestMethods.get(message.id);
  if (method === undefined) return [];
  const name = RESPONSES[method];
  return name === undefined ? [`no response schema known for ${method}`] : check(name, message.result);
};
