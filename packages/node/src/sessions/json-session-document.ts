/**
 * The session file's document, format "mm-session" version 1 (docs/session-file.md): a StoredSession
 * and its generation (the tag a journal names) encoded with one JSON.stringify, and decoded with one
 * JSON.parse plus a single validating pass. Pure; jsonSessionStore does the I/O.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { err, ok, type Result } from "neverthrow";
import type { FileDiff, History, ImageData, Message, ReasoningPart, ShownCall, StoredSession, SystemMessage, ToolCall } from "@mm/core";
import { isPermissionMode, MAX_INPUT_DEPTH, nestsDeeperThan, PERMISSION_MODES, type PermissionMode } from "@mm/core";
import { asciiJson } from "./ascii-json.js";

/** The `format` every session file carries. */
export const SESSION_FORMAT = "mm-session";
/** The newest version this code writes and reads; a file with a higher one is refused, never misread. */
export const SESSION_VERSION = 1;

/** Why a document could not be decoded: `message` is one line naming the offending field. */
export type SessionDocumentError = { readonly kind: "corrupt"; readonly message: string } | { readonly kind: "unsupported-version"; readonly version: unknown };

/** A validation failure at one field, carried as a value through the single pass. */
export class Invalid {
  constructor(readonly message: string) {}
}

type Json = { readonly [key: string]: unknown };

export const isRecord = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

export const shown = (value: unknown): string => {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  return typeof value === "object" ? "an object" : String(value);
};

export const expected = (at: string, what: string, value: unknown): Invalid => new Invalid(`${at}: expected ${what}, got ${shown(value)}`);

const text = (record: Json, key: string, at: string): string | Invalid => {
  const value = record[key];
  return typeof value === "string" ? value : expected(`${at}.${key}`, "a string", value);
};

const textOrNull = (record: Json, key: string, at: string): string | null | Invalid => {
  const value = record[key];
  return typeof value === "string" || value === null ? value : expected(`${at}.${key}`, "a string or null", value);
};

const decodeDiff = (value: unknown, at: string): FileDiff | Invalid => {
  if (!isRecord(value)) return expected(at, "an object", value);
  const path = text(value, "path", at);
  if (path instanceof Invalid) return path;
  const oldText = textOrNull(value, "oldText", at);
  if (oldText instanceof Invalid) return oldText;
  const newText = textOrNull(value, "newText", at);
  if (newText instanceof Invalid) return newText;
  if (value.note === undefined) return { path, oldText, newText };
  const note = text(value, "note", at);
  return note instanceof Invalid ? note : { path, oldText, newText, note };
};

const decodeCall = (value: unknown, at: string): ToolCall | Invalid => {
  if (!isRecord(value)) return expected(at, "an object", value);
  const id = text(value, "id", at);
  if (id instanceof Invalid) return id;
  const name = text(value, "name", at);
  if (name instanceof Invalid) return name;
  if (nestsDeeperThan(value.input)) return new Invalid(`${at}.input: nested deeper than ${MAX_INPUT_DEPTH} levels`);
  return { id, name, input: value.input };
};

const decodeList = <T>(value: unknown, at: string, decodeItem: (item: unknown, at: string) => T | Invalid): T[] | Invalid => {
  if (!Array.isArray(value)) return expected(at, "an array", value);
  const items: T[] = [];
  for (let i = 0; i < value.length; i++) {
    const item = decodeItem(value[i], `${at}[${i}]`);
    if (item instanceof Invalid) return item;
    items.push(item);
  }
  return items;
};

const decodeImage = (value: unknown, at: string): ImageData | Invalid => {
  if (!isRecord(value)) return expected(at, "an object", value);
  const data = text(value, "data", at);
  if (data instanceof Invalid) return data;
  const mimeType = text(value, "mimeType", at);
  return mimeType instanceof Invalid ? mimeType : { data, mimeType };
};

/** The optional `images` of a user or tool message: absent, or a list of images. */
const decodeImages = (record: Json, at: string): { images?: ImageData[] } | Invalid => {
  if (record.images === undefined) return {};
  const images = decodeList(record.images, `${at}.images`, decodeImage);
  return images instanceof Invalid ? images : { images };
};

const decodeReasoning = (value: unknown, at: string): ReasoningPart | Invalid => {
  if (!isRecord(value)) return expected(at, "an object", value);
  const body = text(value, "text", at);
  if (body instanceof Invalid) return body;
  const part: { text: string; item?: string; encrypted?: string } = { text: body };
  for (const key of ["item", "encrypted"] as const) {
    if (value[key] === undefined) continue;
    const field = text(value, key, at);
    if (field instanceof Invalid) return field;
    part[key] = field;
  }
  return part;
};

const decodeAssistant = (record: Json, at: string): Message | Invalid => {
  const body = text(record, "text", at);
  if (body instanceof Invalid) return body;
  const toolCalls = decodeList(record.toolCalls, `${at}.toolCalls`, decodeCall);
  if (toolCalls instanceof Invalid) return toolCalls;
  if (record.reasoning === undefined) return { role: "assistant", text: body, toolCalls };
  const reasoning = decodeList(record.reasoning, `${at}.reasoning`, decodeReasoning);
  return reasoning instanceof Invalid ? reasoning : { role: "assistant", text: body, toolCalls, reasoning };
};

/** A result's record of how its call was shown; only a display hint, so one that does not check is dropped. */
const decodeShown = (value: unknown): { readonly shown?: ShownCall } => {
  if (!isRecord(value) || typeof value.title !== "string" || typeof value.kind !== "string") return {};
  // Files an editor may open: absolute paths only, whatever a session file from a cloned repository says.
  const locations =
    Array.isArray(value.locations) && value.locations.every((l) => typeof l === "string" && l.startsWith("/") && !l.includes("\0"))
      ? { locations: value.locations as string[] }
      : {};
  return { shown: { title: value.title, kind: value.kind, ...locations } };
};

const decodeToolResult = (record: Json, at: string): Message | Invalid => {
  const callId = text(record, "callId", at);
  if (callId instanceof Invalid) return callId;
  const toolName = text(record, "toolName", at);
  if (toolName instanceof Invalid) return toolName;
  const status = record.status;
  if (status !== "completed" && status !== "failed") return expected(`${at}.status`, "completed/failed", status);
  const output = text(record, "output", at);
  if (output instanceof Invalid) return output;
  const images = decodeImages(record, at);
  if (images instanceof Invalid) return images;
  const shown = decodeShown(record.shown);
  if (record.diffs === undefined) return { role: "tool", callId, toolName, status, output, ...images, ...shown };
  const diffs = decodeList(record.diffs, `${at}.diffs`, decodeDiff);
  return diffs instanceof Invalid ? diffs : { role: "tool", callId, toolName, status, output, diffs, ...images, ...shown };
};

/** One message of the history after the system prompt, checked; `at` names it in the error. */
export const decodeMessage = (value: unknown, at: string): Message | Invalid => {
  if (!isRecord(value)) return expected(at, "an object", value);
  switch (value.role) {
    case "user": {
      const body = text(value, "text", at);
      if (body instanceof Invalid) return body;
      const images = decodeImages(value, at);
      if (images instanceof Invalid) return images;
      if (value.summary === undefined) return { role: "user", text: body, ...images };
      return value.summary === true ? { role: "user", text: body, summary: true } : expected(`${at}.summary`, "true", value.summary);
    }
    case "assistant":
      return decodeAssistant(value, at);
    case "tool":
      return decodeToolResult(value, at);
    default:
      return expected(`${at}.role`, "user/assistant/tool", value.role);
  }
};

/** The system prompt, checked; `at` names it in the error. */
export const decodeSystem = (value: unknown, at = "messages[0]"): SystemMessage | Invalid => {
  if (!isRecord(value)) return expected(at, "an object", value);
  if (value.role !== "system") return expected(`${at}.role`, "system (the system prompt comes first)", value.role);
  const body = text(value, "text", at);
  return body instanceof Invalid ? body : { role: "system", text: body };
};

const decodeHistory = (value: unknown): History | Invalid => {
  if (!Array.isArray(value)) return expected("messages", "an array", value);
  if (value.length === 0) return new Invalid("messages: expected at least the system prompt, got an empty array");
  const system = decodeSystem(value[0]);
  if (system instanceof Invalid) return system;
  const history: [SystemMessage, ...Message[]] = [system];
  for (let i = 1; i < value.length; i++) {
    const message = decodeMessage(value[i], `messages[${i}]`);
    if (message instanceof Invalid) return message;
    history.push(message);
  }
  return history;
};

const decodeTime = (record: Json, key: string): number | Invalid => {
  const value = record[key];
  const ms = typeof value === "string" ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? ms : expected(key, "an ISO 8601 date", value);
};

const decodeVersion = (value: unknown): Result<void, SessionDocumentError> => {
  if (value === SESSION_VERSION) return ok(undefined);
  if (typeof value === "number" && Number.isInteger(value) && value > SESSION_VERSION) {
    return err({ kind: "unsupported-version", version: value });
  }
  return err({ kind: "corrupt", message: `version: expected ${SESSION_VERSION}, got ${shown(value)}` });
};

/**
 * A decoded session file: the session, the generation a journal must name to extend it, and the
 * signature of its settings (`settingsMac`), checked by {@link provenSession}.
 */
export type DecodedDocument = { readonly session: StoredSession; readonly generation: string | undefined; readonly settingsMac?: string };

const decodeFields = (document: Json, id: string): DecodedDocument | Invalid => {
  if (document.id !== id) return expected("id", `${JSON.stringify(id)} (the file's name)`, document.id);
  const cwd = document.cwd;
  if (typeof cwd !== "string") return expected("cwd", "a string", cwd);
  const createdAt = decodeTime(document, "createdAt");
  if (createdAt instanceof Invalid) return createdAt;
  const updatedAt = decodeTime(document, "updatedAt");
  if (updatedAt instanceof Invalid) return updatedAt;
  const settings = decodeSettings(document);
  if (settings instanceof Invalid) return settings;
  const generation = document.generation;
  if (generation !== undefined && typeof generation !== "string") return expected("generation", "a string", generation);
  const settingsMac = document.settingsMac;
  if (settingsMac !== undefined && (typeof settingsMac !== "string" || !MAC.test(settingsMac))) return expected("settingsMac", "64 hex digits", settingsMac);
  const history = decodeHistory(document.messages);
  if (history instanceof Invalid) return history;
  return { session: { id, cwd, createdAt, updatedAt, history, ...settings }, generation, ...(settingsMac !== undefined ? { settingsMac } : {}) };
};

const MAC = /^[0-9a-f]{64}$/;

/**
 * The settings of a session that change what runs unasked, who answers or what it costs: a mode other
 * than `ask`, a model, a reasoning effort.
 */
type PowerSettings = { readonly model?: string; readonly mode?: PermissionMode; readonly effort?: string };

const powerOf = (session: StoredSession): PowerSettings => ({
  ...(session.model !== undefined ? { model: session.model } : {}),
  ...(session.mode !== undefined && session.mode !== "ask" ? { mode: session.mode } : {}),
  ...(session.effort !== undefined ? { effort: session.effort } : {}),
});

/** Whether `session` has settings that are only honoured signed (its store reads the key for them). */
export const hasPowerSettings = (session: StoredSession): boolean => Object.keys(powerOf(session)).length > 0;

/**
 * The HMAC-SHA256 of a session's power settings under the user's key (the one that signs undo logs,
 * packages/node/src/undo/undo-key.ts), bound to the session's id and cwd: a signed `mode` cannot be
 * moved to another session's file. Undefined when there is nothing to sign.
 */
export const settingsMacOf = (session: StoredSession, key: Uint8Array): string | undefined => {
  const power = powerOf(session);
  if (!hasPowerSettings(session)) return undefined;
  // The effort only when there is one: signatures made before efforts were kept still check.
  const effort = power.effort !== undefined ? [power.effort] : [];
  const body = asciiJson(["mm-session-settings", SESSION_VERSION, session.id, session.cwd, power.model ?? null, power.mode ?? null, ...effort]);
  return createHmac("sha256", key).update(body).digest("hex");
};

/**
 * The decoded session with only the settings mm can prove it wrote: its `mode` (other than `ask`),
 * `model` and `effort` are kept when `settingsMac` checks with `key`, else left out (the session runs in `ask`, on
 * the configured model and effort) and named in `unproven`. A file a repository ships, or a command rewrote,
 * cannot carry the user's key. Without a key nothing is proven. `cwd`: where the session is loaded.
 */
export const provenSession = (decoded: DecodedDocument, key: Uint8Array | undefined, cwd = decoded.session.cwd): StoredSession => {
  const { session, settingsMac } = decoded;
  const power = powerOf(session);
  if (!hasPowerSettings(session)) return session;
  // Checked against the cwd the session is loaded in: a signed file copied to another project proves nothing there.
  const expectedMac = key === undefined ? undefined : settingsMacOf({ ...session, cwd }, key);
  if (expectedMac !== undefined && settingsMac !== undefined && timingSafeEqual(Buffer.from(expectedMac, "hex"), Buffer.from(settingsMac, "hex"))) {
    return session;
  }
  const { model: _model, mode: _mode, effort: _effort, ...rest } = session;
  return { ...rest, unproven: power };
};

/** The optional `title`, `model`, `mode`, `effort` and `cost` of a document (absent in files written before them). */
const decodeSettings = (document: Json): Pick<StoredSession, "title" | "model" | "mode" | "effort" | "cost"> | Invalid => {
  const settings: { title?: string; model?: string; mode?: PermissionMode; effort?: string; cost?: number } = {};
  if (document.cost !== undefined) {
    const cost = document.cost;
    if (typeof cost !== "number" || !Number.isFinite(cost) || cost < 0) return expected("cost", "a number of US dollars, 0 or more", cost);
    settings.cost = cost;
  }
  for (const key of ["title", "model", "effort"] as const) {
    const value = document[key];
    if (value === undefined) continue;
    if (typeof value !== "string") return expected(key, "a string", value);
    settings[key] = value;
  }
  if (document.mode !== undefined) {
    if (!isPermissionMode(document.mode)) return expected("mode", PERMISSION_MODES.map((m) => JSON.stringify(m.id)).join(" or "), document.mode);
    settings.mode = document.mode;
  }
  return settings;
};

/** The session stored in `source`, the text of `<id>.json`; the document's own id must be `id`. */
export const decodeSessionDocument = (source: string, id: string): Result<StoredSession, SessionDocumentError> =>
  decodeSessionFile(source, id).map((decoded) => decoded.session);

/** The session stored in `source` and the document's generation. */
export const decodeSessionFile = (source: string, id: string): Result<DecodedDocument, SessionDocumentError> => {
  let document: unknown;
  try {
    document = JSON.parse(source);
  } catch (error) {
    return err({ kind: "corrupt", message: `not JSON (${error instanceof Error ? error.message : String(error)})` });
  }
  if (!isRecord(document)) return err({ kind: "corrupt", message: `expected a JSON object, got ${shown(document)}` });
  if (document.format !== SESSION_FORMAT) {
    return err({ kind: "corrupt", message: `format: expected "${SESSION_FORMAT}", got ${shown(document.format)}` });
  }
  return decodeVersion(document.version).andThen((): Result<DecodedDocument, SessionDocumentError> => {
    const decoded = decodeFields(document, id);
    return decoded instanceof Invalid ? err({ kind: "corrupt", message: decoded.message }) : ok(decoded);
  });
};

/**
 * Each message's JSON as the files hold it (ASCII), made once per message: messages are immutable
 * values, and the document is rewritten whole after every turn (the fold), so a rewrite encodes only
 * the messages it has not written before. Kept as long as the message is.
 */
const encodedMessages = new WeakMap<Message | SystemMessage, string>();

/**
 * `asciiJson(message)`, once per message. Kept as a one-byte string: V8 keeps a string made from one
 * that had a character beyond Latin-1 in its two-byte form, escapes and all, and each write of the
 * document would then convert every such message again. Throws as JSON.stringify does.
 */
export const encodedMessage = (message: Message | SystemMessage): string => {
  let text = encodedMessages.get(message);
  if (text === undefined) {
    text = Buffer.from(asciiJson(message), "latin1").toString("latin1");
    encodedMessages.set(message, text);
  }
  return text;
};

const MAX_DATE_MS = 8.64e15;

export const isoOf = (ms: number, key: string): string | Invalid =>
  Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS ? new Date(ms).toISOString() : expected(key, "a date in milliseconds", ms);

/**
 * The text of the session's file: one line of JSON in ASCII (ascii-json.ts), messages verbatim, with
 * `generation` when given, and with `key` the signature of its mode and model (`settingsMac`).
 * Fails on a bad date or an unserialisable tool input.
 */
export const encodeSessionDocument = (session: StoredSession, generation?: string, key?: Uint8Array): Result<string, string> => {
  const createdAt = isoOf(session.createdAt, "createdAt");
  if (createdAt instanceof Invalid) return err(createdAt.message);
  const updatedAt = isoOf(session.updatedAt, "updatedAt");
  if (updatedAt instanceof Invalid) return err(updatedAt.message);
  const settingsMac = key === undefined ? undefined : settingsMacOf(session, key);
  const fields = {
    format: SESSION_FORMAT,
    version: SESSION_VERSION,
    id: session.id,
    cwd: session.cwd,
    createdAt,
    updatedAt,
    ...(session.title !== undefined ? { title: session.title } : {}),
    ...(session.model !== undefined ? { model: session.model } : {}),
    ...(session.mode !== undefined ? { mode: session.mode } : {}),
    ...(session.effort !== undefined ? { effort: session.effort } : {}),
    ...(session.cost !== undefined ? { cost: session.cost } : {}),
    ...(generation !== undefined ? { generation } : {}),
    ...(settingsMac !== undefined ? { settingsMac } : {}),
  };
  try {
    // The text of `asciiJson({ ...fields, messages: session.history })`, its messages encoded once each.
    const head = asciiJson(fields);
    const messages = session.history.map(encodedMessage);
    const size = messages.reduce((total, text) => total + text.length + 1, head.length);
    if (size > MAX_SESSION_DOCUMENT_BYTES) return err(tooLarge(size));
    return ok(`${head.slice(0, -1)},"messages":[${messages.join(",")}]}\n`);
  } catch (error) {
    if (error instanceof RangeError) return err(tooLarge(undefined));
    return err(`cannot serialise session: ${error instanceof Error ? error.message : String(error)}`);
  }
};

/**
 * The largest session document mm writes (ASCII, so bytes): far below what one JSON text can be in
 * Node (about 512 MiB), with room for the journal folded in. A session past it is not saved, and
 * each prompt says so (docs/session-file.md): the turn stays in memory, a /compact makes it fit again.
 */
export const MAX_SESSION_DOCUMENT_BYTES = 256 * 1024 * 1024;

const tooLarge = (size: number | undefined): string =>
  `the session file would be ${size === undefined ? "larger than a JSON text can be" : `${Math.ceil(size / (1024 * 1024))} MB`}, over the ${MAX_SESSION_DOCUMENT_BYTES / (1024 * 1024)} MB a session file holds: its last turns are kept in memory only; /compact (or a new session) makes it fit again`;
