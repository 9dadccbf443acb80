/**
 * The session journal, `<id>.journal` beside `<id>.json` (docs/session-file.md): JSON lines, a header
 * naming the document generation it extends, then one line per message added (or a new system
 * prompt). Pure: encoding lines, and reading a journal's bytes onto its document.
 */
import { err, ok, type Result } from "neverthrow";
import type { History, Message, StoredSession, SystemMessage } from "@mm/core";
import { expected, Invalid, isoOf, isRecord, shown } from "./document-validation.js";
import { encodedMessage, type SessionDocumentError } from "./json-session-document.js";
import { decodeMessage, decodeSystem } from "./session-message-decode.js";
import { asciiJson } from "./ascii-json.js";

/** The `format` of a journal's header line. */
export const JOURNAL_FORMAT = "mm-session-journal";
/** The newest journal version this code writes and reads. */
export const JOURNAL_VERSION = 1;

/** The header line of a journal extending the document of `generation`, which holds `messages` messages. */
export const journalHeader = (id: string, generation: string, messages: number): string =>
  `${asciiJson({ format: JOURNAL_FORMAT, version: JOURNAL_VERSION, id, base: generation, messages })}\n`;

/**
 * The lines recording how `next` extends `previous`: a new system prompt (`at: 0`), then each added
 * message at its index. Undefined when `next` does not extend `previous` (it must then be rewritten).
 * Messages are compared by identity first (histories share them), then by their JSON.
 */
export const journalLines = (previous: History, next: History, updatedAt: number): Result<string, string> | undefined => {
  if (next.length < previous.length) return undefined;
  for (let i = 1; i < previous.length; i++) {
    const a = previous[i];
    const b = next[i];
    if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) return undefined;
  }
  const at = isoOf(updatedAt, "updatedAt");
  if (at instanceof Invalid) return err(at.message);
  // The text of `asciiJson({ at: index, updatedAt: at, message })`, the message encoded once (the fold reuses it).
  const stamp = asciiJson(at);
  const line = (index: number, message: Message): string => `{"at":${index},"updatedAt":${stamp},"message":${encodedMessage(message)}}\n`;
  try {
    let text = previous[0] === next[0] || previous[0].text === next[0].text ? "" : line(0, next[0]);
    for (let i = previous.length; i < next.length; i++) text += line(i, next[i]!);
    return ok(text);
  } catch (error) {
    return err(`cannot serialise session: ${error instanceof Error ? error.message : String(error)}`);
  }
};

/** A journal read onto its document. */
export type JournalReading =
  /** The journal does not extend this document (it was folded into it, or belongs to another one): ignore it. */
  | { readonly kind: "stale" }
  | {
      readonly kind: "applied";
      readonly session: StoredSession;
      /** Lines applied. */
      readonly entries: number;
      /** When `torn`, the length in bytes of the complete lines; the bytes after them are a torn last line, ignored. */
      readonly validBytes: number;
      readonly torn: boolean;
    };

const decodeHeader = (line: string, id: string, generation: string | undefined, messages: number): Result<boolean, SessionDocumentError> => {
  let header: unknown;
  try {
    header = JSON.parse(line);
  } catch {
    return err({ kind: "corrupt", message: "journal line 1: not JSON" });
  }
  if (!isRecord(header) || header.format !== JOURNAL_FORMAT) {
    return err({ kind: "corrupt", message: `journal line 1: expected a header of format "${JOURNAL_FORMAT}"` });
  }
  const version = header.version;
  if (typeof version === "number" && Number.isInteger(version) && version > JOURNAL_VERSION) return err({ kind: "unsupported-version", version });
  if (version !== JOURNAL_VERSION) return err({ kind: "corrupt", message: `journal line 1: version: expected ${JOURNAL_VERSION}, got ${shown(version)}` });
  if (header.id !== id) return err({ kind: "corrupt", message: `journal line 1: ${expected("id", JSON.stringify(id), header.id).message}` });
  return ok(generation !== undefined && header.base === generation && header.messages === messages);
};

const decodeEntry = (line: string, n: number, length: number): { readonly at: number; readonly updatedAt: number; readonly message: Message } | Invalid => {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return new Invalid(`journal line ${n}: not JSON`);
  }
  if (!isRecord(entry)) return expected(`journal line ${n}`, "an object", entry);
  const at = entry.at;
  if (at !== 0 && at !== length) return expected(`journal line ${n}.at`, `0 or ${length}`, at);
  const updatedAt = typeof entry.updatedAt === "string" ? Date.parse(entry.updatedAt) : Number.NaN;
  if (!Number.isFinite(updatedAt)) return expected(`journal line ${n}.updatedAt`, "an ISO 8601 date", entry.updatedAt);
  const message = at === 0 ? decodeSystem(entry.message, `journal line ${n}.message`) : decodeMessage(entry.message, `journal line ${n}.message`);
  return message instanceof Invalid ? message : { at, updatedAt, message };
};

/**
 * Applies the journal's text to the document it extends. A last line without its newline (a write
 * cut short) is ignored; any other line that is not a valid entry makes the journal corrupt.
 */
export const readJournal = (source: string, base: StoredSession, generation: string | undefined): Result<JournalReading, SessionDocumentError> => {
  const validChars = source.lastIndexOf("\n") + 1;
  const valid = source.slice(0, validChars);
  const lines = valid.split("\n");
  lines.pop();
  if (lines.length === 0) return ok({ kind: "stale" });
  return decodeHeader(lines[0]!, base.id, generation, base.history.length).andThen((matches): Result<JournalReading, SessionDocumentError> => {
    if (!matches) return ok({ kind: "stale" });
    let system: SystemMessage = base.history[0];
    const rest: Message[] = base.history.slice(1);
    let updatedAt = base.updatedAt;
    for (let i = 1; i < lines.length; i++) {
      const entry = decodeEntry(lines[i]!, i + 1, rest.length + 1);
      if (entry instanceof Invalid) return err({ kind: "corrupt", message: entry.message });
      if (entry.at === 0) system = entry.message as SystemMessage;
      else rest.push(entry.message);
      updatedAt = Math.max(updatedAt, entry.updatedAt);
    }
    const history: History = [system, ...rest];
    const torn = validChars < source.length;
    return ok({ kind: "applied", session: { ...base, updatedAt, history }, entries: lines.length - 1, validBytes: torn ? Buffer.byteLength(valid) : -1, torn });
  });
};
