import { lstat, open, readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { SAFE_READ_FLAGS } from "../files/safe-read-flags.js";
import { isSessionId, titleOf, type StoreError, type StoredSessionSummary } from "@mm/core";
import { errorCode, reasonOf } from "../errno.js";
import { isRecord } from "./document-validation.js";
import { SESSION_FORMAT } from "./session-format.js";
import { checkSessionsDir } from "./session-files.js";

const HEAD_BYTES = 64 * 1024;
const FIRST_USER = /\{"role":"user","text":("(?:[^"\\]|\\.)*")(,"summary":true)?\}/g;

type Head = { readonly [key: string]: unknown };

/** The first bytes of a regular file, and whether that is all of it. */
const readHead = async (path: string): Promise<{ readonly text: string; readonly whole: boolean } | undefined> => {
  const handle = await open(path, SAFE_READ_FLAGS).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(HEAD_BYTES, info.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { text: buffer.toString("utf8", 0, bytesRead), whole: bytesRead >= info.size };
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
};

const parse = (text: string): Head | undefined => {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
};

/** The document's fields before `messages`, and the text of its first user message that is no summary. */
const headOf = (text: string, whole: boolean): { readonly fields: Head; readonly firstUser: string | undefined } | undefined => {
  if (whole) {
    const fields = parse(text);
    if (fields === undefined) return undefined;
    const messages: readonly unknown[] = Array.isArray(fields.messages) ? fields.messages : [];
    const isFirstUser = (m: unknown): m is { readonly text: string } =>
      typeof m === "object" && m !== null && (m as Head).role === "user" && (m as Head).summary !== true && typeof (m as Head).text === "string";
    return { fields, firstUser: messages.find(isFirstUser)?.text };
  }
  const at = text.indexOf(',"messages":[');
  if (at === -1) return undefined;
  const fields = parse(`${text.slice(0, at)}}`);
  if (fields === undefined) return undefined;
  for (const match of text.slice(at).matchAll(FIRST_USER)) {
    if (match[2] !== undefined) continue;
    const firstUser = parse(`{"t":${match[1]}}`)?.t;
    return { fields, firstUser: typeof firstUser === "string" ? firstUser : undefined };
  }
  return { fields, firstUser: undefined };
};

const summaryOf = (id: string, text: string, whole: boolean): StoredSessionSummary | undefined => {
  const head = headOf(text, whole);
  if (head === undefined) return undefined;
  const { format, id: ownId, cwd, createdAt, updatedAt, title } = head.fields;
  const created = typeof createdAt === "string" ? Date.parse(createdAt) : Number.NaN;
  const updated = typeof updatedAt === "string" ? Date.parse(updatedAt) : Number.NaN;
  if (format !== SESSION_FORMAT || ownId !== id || typeof cwd !== "string" || !Number.isFinite(created) || !Number.isFinite(updated)) return undefined;
  const named = typeof title === "string" ? title : head.firstUser === undefined ? undefined : titleOf(head.firstUser);
  return { id, cwd, title: named, createdAt: created, updatedAt: updated };
};

/** The sessions of `cwd` in `dir`, newest first. */
export const listSessionFiles = async (dir: string, cwd: string): Promise<Result<readonly StoredSessionSummary[], StoreError>> => {
  const failure = (message: string): StoreError => ({ kind: "io", id: "", message });
  const exists = await checkSessionsDir(dir);
  if (exists.isErr()) return err(failure(exists.error));
  if (!exists.value) return ok([]);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    return err(failure(`cannot list sessions dir ${dir}: ${reasonOf(error)}`));
  }
  const ids = names
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -5))
    .filter(isSessionId);
  const summaries = await Promise.all(
    ids.map(async (id) => {
      const head = await readHead(join(dir, `${id}.json`));
      const summary = head === undefined ? undefined : summaryOf(id, head.text, head.whole);
      // Messages appended since the document was written are in its journal: the session's last update is then the journal's.
      const journal = await lstat(join(dir, `${id}.journal`)).catch(() => undefined);
      return summary !== undefined && journal !== undefined && journal.mtimeMs > summary.updatedAt ? { ...summary, updatedAt: journal.mtimeMs } : summary;
    }),
  );
  return ok(
    summaries.filter((s): s is StoredSessionSummary => s !== undefined && s.cwd === cwd).sort((a, b) => b.updatedAt - a.updatedAt || b.id.localeCompare(a.id)),
  );
};

/** Removes `<id>.json` from `dir`; a file that is not there is fine. */
export const removeSessionFile = async (dir: string, id: string): Promise<Result<void, StoreError>> => {
  try {
    await unlink(join(dir, `${id}.json`));
    return ok(undefined);
  } catch (error) {
    const code = errorCode(error);
    return code === "ENOENT" || code === "ENOTDIR"
      ? ok(undefined)
      : err({ kind: "io", id, message: `cannot remove ${join(dir, `${id}.json`)}: ${reasonOf(error)}` });
  }
};
