/**
 * The secrets mm holds (the model's key, the headers and environment values an editor gives its MCP
 * servers, the variables of `tools.hiddenEnv`), in one place, and the one function that replaces them:
 * in every tool result and diff (the core's turn engine), every live output, the session files, the
 * log. A value under {@link MIN_SECRET_LENGTH} characters is not one (it would blank common words).
 * What this cannot catch, a transformed copy (base64, split, reversed), is said in docs/decisions.md.
 */
import { redactDeep, type Redact, type StoredSession } from "@mm/core";

export type { Redact };

/** What a secret is replaced with. */
export const REDACTED = "[redacted: a secret of the agent's]";

/** Shorter values are never taken as secrets. */
export const MIN_SECRET_LENGTH = 8;

/**
 * A redaction that can also say where a text's end could be the start of a secret still to come
 * (`heldFrom`): what a stream of chunks (a command's live output) must hold back until the next one.
 */
export type StreamRedact = Redact & {
  /** The index from which `text`'s end is the beginning of a secret known now; `text.length` when none. */
  readonly heldFrom: (text: string) => number;
};

/** The secrets of this process: added to as editors give servers, read by every redaction. */
export type Secrets = {
  /** Adds values (undefined and short ones are ignored). */
  readonly add: (values: Iterable<string | undefined>) => void;
  /** Replaces each secret known now in `text` (the same string when it holds none). */
  readonly redact: StreamRedact;
  /** Whether `bytes` hold a secret known now (undo data: such a file is not copied). */
  readonly heldIn: (bytes: Uint8Array) => boolean;
  /** How many are known. */
  readonly size: () => number;
};

/** `text` with each of `secrets` (longest first, so one inside another goes whole) replaced. */
export const redactWith = (secrets: readonly string[], text: string): string => {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
};

/** Whether `text` from `from` to its end is the beginning (not the whole) of `secret`: compared in place, stopping at the first difference. */
const startsSecret = (text: string, from: number, secret: string): boolean => {
  const length = text.length - from;
  if (length >= secret.length) return false;
  for (let i = 0; i < length; i++) if (text.charCodeAt(from + i) !== secret.charCodeAt(i)) return false;
  return true;
};

/** The index from which `text` ends with the beginning (not the whole) of one of `secrets` (longest first); `text.length` when none. */
export const heldFromWith = (secrets: readonly string[], text: string): number => {
  const longest = secrets[0]?.length ?? 0;
  for (let from = Math.max(0, text.length - longest + 1); from < text.length; from++) {
    const first = text.charCodeAt(from);
    for (const secret of secrets) if (secret.charCodeAt(0) === first && startsSecret(text, from, secret)) return from;
  }
  return text.length;
};

/**
 * A listener for a stream of chunks that hands `listener` each one redacted, holding back an end that
 * could be the start of a secret until the next chunk shows whether it is one: a secret printed in
 * two writes is replaced whole. `flush` hands on what is held (at the stream's end).
 */
export const redactingStream = (
  redact: StreamRedact,
  listener: (text: string) => void,
): { readonly write: (chunk: string) => void; readonly flush: () => void } => {
  let held = "";
  return {
    write: (chunk) => {
      const text = redact(held + chunk);
      const from = redact.heldFrom(text);
      held = text.slice(from);
      if (from > 0) listener(text.slice(0, from));
    },
    flush: () => {
      const rest = held;
      held = "";
      if (rest !== "") listener(redact(rest));
    },
  };
};

const usable = (value: string | undefined): value is string => value !== undefined && value.length >= MIN_SECRET_LENGTH;

/** A set of secrets, starting with `initial`. */
export const secretSet = (initial: Iterable<string | undefined> = []): Secrets => {
  const known = new Set<string>();
  let ordered: readonly string[] = [];
  const add = (values: Iterable<string | undefined>): void => {
    let grew = false;
    for (const value of values) {
      if (!usable(value)) continue;
      // As a JSON file holds it too (a quote, a backslash, a control character escaped): an editor's settings file.
      for (const form of new Set([value, JSON.stringify(value).slice(1, -1)])) {
        if (known.has(form)) continue;
        known.add(form);
        grew = true;
      }
    }
    if (grew) ordered = [...known].sort((a, b) => b.length - a.length);
  };
  add(initial);
  const redact: StreamRedact = Object.assign((text: string) => (ordered.length === 0 ? text : redactWith(ordered, text)), {
    heldFrom: (text: string) => (ordered.length === 0 ? text.length : heldFromWith(ordered, text)),
  });
  return {
    add,
    redact,
    heldIn: (bytes) => {
      if (ordered.length === 0) return false;
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return ordered.some((secret) => buffer.includes(secret));
    },
    size: () => ordered.length,
  };
};

/** The parts of a header value that are secrets: the whole value and each word of it (`Bearer <token>`). */
export const headerSecrets = (value: string): readonly string[] => [value, ...value.split(/\s+/)];

/** The credentials of a URL (`https://user:pass@host`, `https://<token>@host`: the user can be the token), as written and decoded. */
export const urlSecrets = (url: string): readonly string[] => {
  try {
    const parsed = new URL(url);
    const decoded = (part: string): string => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    };
    return [parsed.password, decoded(parsed.password), parsed.username, decoded(parsed.username)].filter((v) => v !== "");
  } catch {
    return [];
  }
};

/**
 * The values of an MCP server's environment that count as secrets: every value of 8 characters or
 * more, except one mm's own environment already holds under the same name (PATH, HOME…: not the
 * editor's to hide) and an absolute path (a directory named in every listing would go blank).
 */
export const envSecrets = (env: Readonly<Record<string, string>>, own: Readonly<Record<string, string | undefined>>): readonly string[] =>
  Object.entries(env)
    .filter(([name, value]) => own[name] !== value && !value.startsWith("/"))
    .map(([, value]) => value);

/**
 * A session as the store writes it: each message with the secrets known now replaced (user text, tool
 * calls, results, diffs), the same message object when it held none. A message is looked at once while
 * the set of secrets stays the same, so a save costs what it adds.
 */
export const sessionRedactor = (secrets: Pick<Secrets, "redact" | "size">): ((session: StoredSession) => StoredSession) => {
  let seen = new WeakMap<object, unknown>();
  let seenSize = secrets.size();
  return (session) => {
    if (secrets.size() === 0) return session;
    if (secrets.size() !== seenSize) {
      seen = new WeakMap();
      seenSize = secrets.size();
    }
    let changed = false;
    const history = session.history.map((message) => {
      let out = seen.get(message) as typeof message | undefined;
      if (out === undefined) {
        out = redactDeep(secrets.redact, message);
        seen.set(message, out);
      }
      if (out !== message) changed = true;
      return out;
    });
    const title = session.title === undefined ? undefined : secrets.redact(session.title);
    if (!changed && title === session.title) return session;
    return { ...session, history: history as unknown as StoredSession["history"], ...(title !== undefined ? { title } : {}) };
  };
};
