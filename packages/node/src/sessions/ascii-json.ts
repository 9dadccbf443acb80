/**
 * JSON as mm writes its session files: `JSON.stringify`, then every character beyond ASCII as its
 * `\uXXXX` escape (a character outside the BMP as its two surrogates), so the file is pure ASCII and
 * `JSON.parse` gives back the same value. Why: a document with a single `é` in it loads measurably
 * slower than its ASCII twin (`pnpm bench sessions`): its UTF-8 decode takes V8's slow path, and the
 * strings made from it cost more to parse, replay and serialise, for the agent and for the editor
 * reading the replay. Readers accept any UTF-8 (older files).
 */
const BEYOND_ASCII = /[\u0080-\uffff]/;
const BEYOND_ASCII_ALL = /[\u0080-\uffff]/g;

const escaped = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** `text` (JSON) with every character beyond ASCII escaped; `text` itself when it has none. */
export const asciiOnly = (text: string): string => (BEYOND_ASCII.test(text) ? text.replace(BEYOND_ASCII_ALL, escaped) : text);

/** `JSON.stringify(value)`, in ASCII (see the module comment). Throws as JSON.stringify does. */
export const asciiJson = (value: unknown): string => asciiOnly(JSON.stringify(value));
