/**
 * The undo log on disk (`<id>.undo.json`, format `mm-undo`, version 1): encoded as one ASCII JSON
 * line whose last field, `mac`, is the HMAC-SHA256 of the line before it under the user's undo key
 * (undo-key.ts). Decoded as hostile input: a signature that does not check refuses the whole log
 * (a repository can ship files in `.mm/sessions/`, but cannot sign them), then the first field out of
 * shape is named in one line, and nothing of it is used.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { UndoFile, UndoFileState, UndoLog, UndoTurn } from "@mm/core";
import { err, ok, type Result } from "neverthrow";
import { asciiJson } from "../sessions/ascii-json.js";
import { isRecord, shown } from "../sessions/document-validation.js";

export const UNDO_FORMAT = "mm-undo";
export const UNDO_VERSION = 1;

/** A blob's name: the SHA-256 of its bytes, in lowercase hex. */
export const BLOB_HASH = /^[0-9a-f]{64}$/;

const macOf = (body: string, key: Uint8Array): string => createHmac("sha256", key).update(body).digest("hex");

/** The signed tail of a log's line: `,"mac":"<64 hex digits>"}`. */
const SIGNED_TAIL = /,"mac":"([0-9a-f]{64})"\}\n?$/;

/** The log's text for session `id` in `cwd`, signed with `key`. */
export const encodeUndoLog = (id: string, cwd: string, log: UndoLog, key: Uint8Array): string => {
  const body = asciiJson({ format: UNDO_FORMAT, version: UNDO_VERSION, id, cwd, turns: log.turns });
  return `${body.slice(0, -1)},"mac":"${macOf(body, key)}"}\n`;
};

/** The unsigned line of a log whose signature checks with `key`; why not, in one line. */
const verified = (text: string, key: Uint8Array): Decoded<string> => {
  const tail = SIGNED_TAIL.exec(text);
  if (tail === null) return err("not signed: undo data is only used when this user's mm wrote it");
  const body = `${text.slice(0, tail.index)}}`;
  const expected = Buffer.from(macOf(body, key), "hex");
  return timingSafeEqual(expected, Buffer.from(tail[1]!, "hex")) ? ok(body) : err("its signature does not check: this user's mm did not write it");
};

type Decoded<T> = Result<T, string>;

const stateOf = (value: unknown, at: string): Decoded<UndoFileState> => {
  if (!isRecord(value)) return err(`${at}: expected an object, got ${shown(value)}`);
  switch (value.kind) {
    case "absent":
      return ok({ kind: "absent" });
    case "blob":
      if (typeof value.hash !== "string" || !BLOB_HASH.test(value.hash)) return err(`${at}.hash: expected 64 hex digits, got ${shown(value.hash)}`);
      if (typeof value.size !== "number" || !Number.isSafeInteger(value.size) || value.size < 0)
        return err(`${at}.size: expected a size, got ${shown(value.size)}`);
      if (value.mode === undefined) return ok({ kind: "blob", hash: value.hash, size: value.size });
      if (typeof value.mode !== "number" || !Number.isInteger(value.mode) || value.mode < 0 || value.mode > 0o777)
        return err(`${at}.mode: expected permission bits (0 to 0o777), got ${shown(value.mode)}`);
      return ok({ kind: "blob", hash: value.hash, size: value.size, mode: value.mode });
    case "unknown":
      return typeof value.reason === "string"
        ? ok({ kind: "unknown", reason: value.reason })
        : err(`${at}.reason: expected a string, got ${shown(value.reason)}`);
    default:
      return err(`${at}.kind: expected absent/blob/unknown, got ${shown(value.kind)}`);
  }
};

const fileOf = (value: unknown, at: string): Decoded<UndoFile> => {
  if (!isRecord(value)) return err(`${at}: expected an object, got ${shown(value)}`);
  const { path } = value;
  if (typeof path !== "string" || !path.startsWith("/") || path.includes("\u0000")) return err(`${at}.path: expected an absolute path, got ${shown(path)}`);
  return stateOf(value.before, `${at}.before`).andThen((before) => stateOf(value.after, `${at}.after`).map((after) => ({ path, before, after })));
};

const turnOf = (value: unknown, at: string): Decoded<UndoTurn> => {
  if (!isRecord(value)) return err(`${at}: expected an object, got ${shown(value)}`);
  if (typeof value.at !== "number" || !Number.isSafeInteger(value.at) || value.at < 1) return err(`${at}.at: expected a message index, got ${shown(value.at)}`);
  if (typeof value.question !== "string") return err(`${at}.question: expected a string, got ${shown(value.question)}`);
  if (!Array.isArray(value.files)) return err(`${at}.files: expected an array, got ${shown(value.files)}`);
  const files: UndoFile[] = [];
  for (const [i, file] of value.files.entries()) {
    const decoded = fileOf(file, `${at}.files[${i}]`);
    if (decoded.isErr()) return err(decoded.error);
    files.push(decoded.value);
  }
  return ok({ at: value.at, question: value.question, files });
};

/** The log in `text`, written for session `id` in `cwd` and signed with `key`; why not, in one line. */
export const decodeUndoLog = (text: string, id: string, cwd: string, key: Uint8Array): Decoded<UndoLog> => {
  const body = verified(text, key);
  if (body.isErr()) return err(body.error);
  let value: unknown;
  try {
    value = JSON.parse(body.value);
  } catch {
    return err("not JSON");
  }
  if (!isRecord(value)) return err(`expected an object, got ${shown(value)}`);
  if (value.format !== UNDO_FORMAT) return err(`format: expected "${UNDO_FORMAT}", got ${shown(value.format)}`);
  if (value.version !== UNDO_VERSION) return err(`version: this mm reads version ${UNDO_VERSION}, got ${shown(value.version)}`);
  if (value.id !== id) return err(`id: expected ${shown(id)}, got ${shown(value.id)}`);
  // A project copied (or moved) with its sessions dir: the log's paths name the files of the first one.
  if (value.cwd !== cwd) return err(`cwd: expected ${shown(cwd)}, got ${shown(value.cwd)}: written for another directory`);
  if (!Array.isArray(value.turns)) return err(`turns: expected an array, got ${shown(value.turns)}`);
  const turns: UndoTurn[] = [];
  for (const [i, turn] of value.turns.entries()) {
    const decoded = turnOf(turn, `turns[${i}]`);
    if (decoded.isErr()) return err(decoded.error);
    turns.push(decoded.value);
  }
  return ok({ turns });
};
