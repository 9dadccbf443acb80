/**
 * The session file's document, format "mm-session" version 1 (docs/session-file.md): a StoredSession
 * and its generation (the tag a journal names) encoded with one JSON.stringify, and decoded with one
 * JSON.parse plus a single validating pass. Pure; jsonSessionStore does the I/O.
 */
import { err, ok, type Result } from "neverthrow";
import type { Message, StoredSession, SystemMessage } from "@mm/core";
import { isPermissionMode, PERMISSION_MODES, type PermissionMode } from "@mm/core";
import { asciiJson } from "./ascii-json.js";
import { expected, Invalid, isoOf, isRecord, type Json, shown } from "./document-validation.js";
import { MAX_SESSION_DOCUMENT_BYTES, tooLarge } from "./document-size.js";
import { SESSION_FORMAT, SESSION_VERSION } from "./session-format.js";
import { decodeHistory } from "./session-message-decode.js";
import { isSettingsMac, settingsMacOf } from "./settings-signature.js";

/** Why a document could not be decoded: `message` is one line naming the offending field. */
export type SessionDocumentError = { readonly kind: "corrupt"; readonly message: string } | { readonly kind: "unsupported-version"; readonly version: unknown };

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
 * signature of its settings (`settingsMac`), checked by `provenSession` (settings-signature.ts).
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
  if (settingsMac !== undefined && !isSettingsMac(settingsMac)) return expected("settingsMac", "64 hex digits", settingsMac);
  const history = decodeHistory(document.messages);
  if (history instanceof Invalid) return history;
  return { session: { id, cwd, createdAt, updatedAt, history, ...settings }, generation, ...(settingsMac !== undefined ? { settingsMac } : {}) };
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
